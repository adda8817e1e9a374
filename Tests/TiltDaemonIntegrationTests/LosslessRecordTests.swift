import Foundation
import Testing
import TiltCore
import TiltSensors
import TiltTestKit

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 28: a `raw` watcher gets every sample up to its queue's bound and is told exactly what it missed beyond it;
/// `tilt record` keeps every sample, marks gaps, ends with a finished replay and never records over its source; a
/// late client of a finished replay is told so. Everything asserted is a count or an order the code guarantees, so
/// the tests hold on a busy machine.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct LosslessRecordTests {
    /// The bundled log's sample times, as tiltd replays them (no bad rows, no gaps).
    static let sourceTimes: [Double] = {
        (try? SensorLog.read(path: TestPaths.broadExcerpt).samples.map(\.time)) ?? []
    }()

    /// Waits until the daemon's sensor is in `state` (asked with `status` on a connection of its own).
    private func waitForSensor(_ state: String, daemon: DaemonProcess, timeout: Double = 60) throws -> Bool {
        let (client, _) = try daemon.greetedClient()
        return try eventually(timeout: timeout) {
            if (try client.status()?["sensor"] as? String) == state { return true }
            usleep(20_000)
            return false
        }
    }

    @Test("a recording at --speed 50 holds every sample the daemon fused, and ends when the replay finishes")
    func recordingAtSpeed50IsComplete() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let daemon = try DaemonProcess.replaying(["--speed", "50"], in: dir)
        defer { daemon.stop() }
        let log = dir.appendingPathComponent("rec.csv").path
        // The recorder is the first watcher, so the replay starts with it; no --duration: the finished replay ends it.
        let record = try ChildProcess.run(
            TestPaths.executable("tilt"),
            ["record", "--from", "daemon", "--socket", daemon.socketPath ?? "", "--output", log])
        #expect(record.status == 0, "\(record.stderr)")
        #expect(record.stderr.contains("stopped: the sensor finished"), "\(record.stderr)")
        #expect(!record.stderr.contains("lost"), "\(record.stderr)")

        let recorded = try SensorLog.read(path: log)
        #expect(recorded.gaps.isEmpty)
        #expect(recorded.samples.count == Self.sourceTimes.count, "every sample of the replay is in the recording")
        #expect(recorded.samples.map(\.time) == Self.sourceTimes, "the same samples, in order")
        #expect(record.stderr.contains("recorded \(Self.sourceTimes.count) samples"), "\(record.stderr)")

        // The offline count: tilt fuse of the source and of the recording fuse the same number of samples.
        let fusedSource = try ChildProcess.run(
            TestPaths.executable("tilt"),
            ["fuse", "--input", TestPaths.broadExcerpt, "--output", dir.appendingPathComponent("a.csv").path])
        let fusedRecording = try ChildProcess.run(
            TestPaths.executable("tilt"),
            ["fuse", "--input", log, "--output", dir.appendingPathComponent("b.csv").path])
        #expect(fusedSource.stderr.contains("fused \(Self.sourceTimes.count) samples"), "\(fusedSource.stderr)")
        #expect(fusedRecording.stderr.contains("fused \(Self.sourceTimes.count) samples"), "\(fusedRecording.stderr)")
    }

    @Test("a raw watcher that does not read gets its queue's samples, then a gap with the exact count and span")
    func stalledRawWatcherIsToldTheGap() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // 0.05 s of samples at 50 × 285.7 Hz: a queue of 715, far less than the log's 17,143 samples.
        let daemon = try DaemonProcess.replaying(["--speed", "50", "--raw-queue-seconds", "0.05"], in: dir)
        defer { daemon.stop() }
        let client = try daemon.connect()
        client.setReceiveBuffer(4096)
        _ = try #require(client.read(class: "hello"))
        try client.send(#"{"cmd":"watch","raw":true,"rate":0.1}"#)
        // It reads nothing until the whole log has been replayed.
        try #require(try waitForSensor("finished", daemon: daemon))

        var times: [Double] = []
        var gaps: [(count: Int, first: Double, last: Double, after: Int)] = []
        var finishedAfterLastSample = false
        while let line = client.readLine(timeout: 10), let message = LineSocket.parse(line) {
            switch message["class"] as? String {
            case "sample":
                times.append(try #require(message["t"] as? Double))
                finishedAfterLastSample = false
            case "gap":
                let count = try #require(message["count"] as? Int)
                let first = try #require(message["first"] as? Double)
                let last = try #require(message["last"] as? Double)
                gaps.append((count, first, last, times.count))
            case "sensor":
                if message["state"] as? String == "finished" { finishedAfterLastSample = true }
            default:
                break
            }
            if finishedAfterLastSample { break }
        }
        #expect(finishedAfterLastSample, "the finished event comes after the last sample")
        try #require(!gaps.isEmpty, "a client that reads nothing of 17,143 samples overflows a queue of 715")
        let lost = gaps.map(\.count).reduce(0, +)
        #expect(times.count + lost == Self.sourceTimes.count, "every sample was either sent or counted in a gap")
        // Each gap stands exactly for the samples missing where it is: their number, first and last time.
        var expected: [Double] = []
        for gap in gaps {
            let missing = Array(Self.sourceTimes[(gap.after + expected.count)...].prefix(gap.count))
            #expect(missing.first == gap.first && missing.last == gap.last, "gap \(gap) vs \(missing.prefix(3))…")
            expected.append(contentsOf: missing)
        }
        let missingTimes = Set(expected)
        #expect(times == Self.sourceTimes.filter { !missingTimes.contains($0) }, "the samples sent, in order")
        // The dropped samples are counted in the client's status (with any frames it missed).
        let status = try #require(try client.status())
        let me = try #require(status["client"] as? [String: Any])
        #expect((me["dropped"] as? Int ?? 0) >= lost)
    }

    /// Runs `tilt record` through a daemon replaying at 10×, stops the recorder (SIGSTOP) for the rest of the
    /// replay so the daemon's queue of 0 s overflows, and lets it go on.
    private func recordWithAStall(extra: [String]) throws -> (status: Int32, stderr: String, log: SensorLog) {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let daemon = try DaemonProcess.replaying(["--speed", "10", "--raw-queue-seconds", "0"], in: dir)
        defer { daemon.stop() }
        let log = dir.appendingPathComponent("rec.csv").path
        let recorder = try BackgroundProcess(
            TestPaths.executable("tilt"),
            ["record", "--from", "daemon", "--socket", daemon.socketPath ?? "", "--output", log] + extra)
        defer { recorder.kill() }
        try #require(try waitForSensor("active", daemon: daemon), "the recorder's watch starts the replay")
        kill(recorder.pid, SIGSTOP)
        let finished = try waitForSensor("finished", daemon: daemon)
        kill(recorder.pid, SIGCONT)
        try #require(finished)
        try #require(eventually(timeout: 60) { !recorder.process.isRunning }, "\(recorder.stderr)")
        return (recorder.process.terminationStatus, recorder.stderr, try SensorLog.read(path: log))
    }

    @Test("a recorder that falls behind marks the gaps, says what it lost and exits 1; --allow-gaps exits 0")
    func recordingWithLossMarksGaps() throws {
        for allow in [false, true] {
            let (status, stderr, log) = try recordWithAStall(extra: allow ? ["--allow-gaps"] : [])
            try #require(!log.gaps.isEmpty, "a recorder stopped for most of the replay lost samples: \(stderr)")
            let lost = log.gaps.values.compactMap(\.count).reduce(0, +)
            #expect(log.samples.count + lost == Self.sourceTimes.count, "recorded and lost add up: \(stderr)")
            #expect(stderr.contains("lost \(lost) samples"), "\(stderr)")
            #expect(stderr.contains("recorded \(log.samples.count) samples"), "\(stderr)")
            #expect(status == (allow ? 0 : 1), "\(stderr)")
            #expect(stderr.contains(allow ? "warning: lost" : "pass --allow-gaps"), "\(stderr)")
            // Each marker sits where its samples are missing.
            for (index, gap) in log.gaps {
                #expect(index > 0 && log.samples[index - 1].time < gap.first!)
                #expect(index == log.samples.count || gap.last! < log.samples[index].time)
            }
        }
    }

    @Test("tilt record refuses to write over the log tiltd replays, even with --force and through a link")
    func recordingOverTheReplayedLogIsRefused() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = dir.appendingPathComponent("src.csv.gz").path
        try FileManager.default.copyItem(atPath: TestPaths.broadExcerpt, toPath: source)
        let link = dir.appendingPathComponent("link.csv.gz").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: source)
        let before = try Data(contentsOf: URL(fileURLWithPath: source))
        let daemon = try DaemonProcess.replaying(log: source, in: dir)
        defer { daemon.stop() }
        for output in [source, link] {
            let record = try ChildProcess.run(
                TestPaths.executable("tilt"),
                ["record", "--from", "daemon", "--socket", daemon.socketPath ?? "", "--output", output, "--force"],
                timeout: 60)
            #expect(record.status == 1, "\(record.stderr)")
            #expect(record.stderr.contains("it is the log tiltd replays"), "\(record.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: source)) == before, "the replayed log is untouched")
        let partials = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(".partial") }
        #expect(partials.isEmpty, "\(partials)")
    }

    @Test("a watcher that stops reading still learns that the replay finished, after the frames it did get")
    func aStalledWatcherStillGetsTheFinishedEvent() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let daemon = try DaemonProcess.replaying(["--speed", "50"], in: dir)
        defer { daemon.stop() }
        let (client, _) = try daemon.greetedClient()
        client.setReceiveBuffer(4096)
        try client.send(#"{"cmd":"watch","rate":1000}"#)
        try #require(try waitForSensor("finished", daemon: daemon))
        var classes: [String] = []
        while let line = client.readLine(timeout: 5), let message = LineSocket.parse(line) {
            let kind = message["class"] as? String ?? ""
            classes.append(kind)
            if kind == "sensor", message["state"] as? String == "finished" { break }
        }
        #expect(classes.last == "sensor", "the finished event arrives: \(classes.suffix(3))")
        let status = try #require(try client.status())
        let me = try #require(status["client"] as? [String: Any])
        #expect((me["dropped"] as? Int ?? 0) > 0, "frames it could not take were dropped, not queued")
    }

    @Test("after a replay finished, a new client is told so: hello, then the event on watch; watch and record end")
    func lateClientsOfAFinishedReplayAreTold() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let daemon = try DaemonProcess.replaying(["--speed", "50"], in: dir)
        defer { daemon.stop() }
        let (first, hello) = try daemon.greetedClient()
        #expect(hello["sensor"] as? String == "idle")
        try first.send(#"{"cmd":"watch","rate":1}"#)
        try #require(try waitForSensor("finished", daemon: daemon))

        let (late, lateHello) = try daemon.greetedClient()
        #expect(lateHello["sensor"] as? String == "finished")
        try late.send(#"{"cmd":"watch","rate":10}"#)
        let event = try #require(late.read(class: "sensor"))
        #expect(event["state"] as? String == "finished")

        let socket = daemon.socketPath ?? ""
        let watch = try ChildProcess.run(
            TestPaths.executable("tilt"), ["watch", "--socket", socket, "--count", "2"], timeout: 60)
        #expect(watch.status == 1, "\(watch.stderr)")
        #expect(watch.stderr.contains("the sensor finished after 0 of 2 frames"), "\(watch.stderr)")

        let log = dir.appendingPathComponent("late.csv").path
        let record = try ChildProcess.run(
            TestPaths.executable("tilt"), ["record", "--from", "daemon", "--socket", socket, "--output", log],
            timeout: 60)
        #expect(record.status == 1, "\(record.stderr)")
        #expect(record.stderr.contains("had finished before recording began"), "\(record.stderr)")
        #expect(!FileManager.default.fileExists(atPath: log))
    }
}

/// `tiltd --replay` of a log with gaps: a marker goes to raw watchers as a `gap`, time going back keeps the clock
/// moving forward.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct ReplayedGapTests {
    @Test func aReplayedLogsGapsReachRawWatchersAndItsClockGoesForward() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var text = "# sampling_rate_hz=100\nt,gyr_x,gyr_y,gyr_z,acc_x,acc_y,acc_z\n"
        for i in 0..<100 { text += "\(43.0 + Double(i) * 0.01),0,0,0.1,0,0,9.81\n" }
        text += "# gap count=7; first=44.0; last=44.06\n"
        for i in 0..<100 { text += "\(44.07 + Double(i) * 0.01),0,0,0.1,0,0,9.81\n" }
        for i in 0..<100 { text += "\(20.0 + Double(i) * 0.01),0,0,0.1,0,0,9.81\n" }
        let path = dir.appendingPathComponent("gaps.csv").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess.replaying(["--speed", "20"], log: path, in: dir)
        defer { daemon.stop() }
        let (client, _) = try daemon.greetedClient()
        try client.send(#"{"cmd":"watch","raw":true,"rate":0.1}"#)
        var times: [Double] = []
        var gaps: [[String: Any]] = []
        var gapAfter: [Int] = []
        while let line = client.readLine(timeout: 20), let message = LineSocket.parse(line) {
            let kind = message["class"] as? String
            if kind == "sample", let t = message["t"] as? Double { times.append(t) }
            if kind == "gap" {
                gaps.append(message)
                gapAfter.append(times.count)
            }
            if kind == "sensor", message["state"] as? String == "finished" { break }
        }
        #expect(times.count == 300)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "the replay's clock goes forward")
        #expect(gaps.count == 1 && gapAfter == [100], "\(gaps)")
        #expect(gaps.first?["count"] as? Int == 7)
        #expect(daemon.log.contains("gap in the samples"), "\(daemon.log)")
    }
}
