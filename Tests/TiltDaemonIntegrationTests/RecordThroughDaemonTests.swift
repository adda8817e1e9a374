import Foundation
import Testing
import TiltTestKit

#if canImport(Glibc)
    import Glibc
#endif

/// `tilt record` through a running tiltd: the log holds the samples the daemon fused, so fusing the log offline
/// gives the frames that clients saw live.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct RecordThroughDaemonTests {
    private func csvRows(_ path: String) throws -> (header: [String], rows: [[Double]]) {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").filter {
            !$0.hasPrefix("#")
        }
        let header = lines.first.map { $0.split(separator: ",").map(String.init) } ?? []
        return (header, lines.dropFirst().map { $0.split(separator: ",").map { Double($0) ?? .nan } })
    }

    @Test("recording through the daemon, then fusing the log offline, reproduces the live frames")
    func recordedLogReproducesLiveFrames() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = DaemonProcess.temporarySocket(in: dir)
        let daemon = try DaemonProcess.replaying(["--speed", "5"], in: dir)
        defer { daemon.stop() }
        let log = dir.appendingPathComponent("rec.csv").path

        // The recorder is the first watcher, so it sees every sample the daemon fuses from the start.
        let recorder = Process()
        recorder.executableURL = URL(fileURLWithPath: TestPaths.executable("tilt"))
        recorder.arguments = ["record", "--from", "daemon", "--socket", socket, "--output", log, "--duration", "3"]
        let recorderErr = dir.appendingPathComponent("record.err")
        _ = FileManager.default.createFile(atPath: recorderErr.path, contents: nil)
        recorder.standardError = try FileHandle(forWritingTo: recorderErr)
        recorder.standardOutput = FileHandle.nullDevice
        try recorder.run()
        defer { if recorder.isRunning { recorder.terminate() } }
        // Wait until the sensor runs (the recorder's watch started it), then watch frames alongside.
        let watcher = try daemon.connect()
        _ = watcher.read(class: "hello")
        let statusDeadline = Deadline(seconds: 10)
        var active = false
        while !active, !statusDeadline.hasPassed {
            active = (try watcher.status()?["sensor"] as? String) == "active"
            if !active { usleep(50_000) }
        }
        try #require(active, "the recorder's watch starts the sensor")
        try watcher.send(#"{"cmd":"watch","rate":20}"#)
        var live: [[String: Any]] = []
        let end = Deadline(seconds: 1.5)
        while !end.hasPassed, let line = watcher.readLine(timeout: 2) {
            if let f = LineSocket.parse(line), f["class"] as? String == "attitude" { live.append(f) }
        }
        let waitEnd = Deadline(seconds: 20)
        while recorder.isRunning, !waitEnd.hasPassed { usleep(50_000) }
        let recorderLog = (try? String(contentsOf: recorderErr, encoding: .utf8)) ?? ""
        try #require(!recorder.isRunning && recorder.terminationStatus == 0, "tilt record: \(recorderLog)")
        try #require(live.count >= 10, "live frames arrived: \(live.count)")

        let recorded = try csvRows(log)
        #expect(recorded.header.prefix(7) == ["t", "gyr_x", "gyr_y", "gyr_z", "acc_x", "acc_y", "acc_z"])
        #expect(recorded.rows.count > 1000, "3 s at 5× of a 286 Hz log: \(recorded.rows.count) rows")

        let fused = dir.appendingPathComponent("fused.csv").path
        let fuse = try ChildProcess.run(TestPaths.executable("tilt"), ["fuse", "--input", log, "--output", fused])
        try #require(fuse.status == 0, "\(fuse.stderr)")
        let table = try csvRows(fused)
        let col = { (name: String) in table.header.firstIndex(of: name)! }
        let (t, w, x, y, z) = (col("t"), col("qw"), col("qx"), col("qy"), col("qz"))
        var byTime: [Int64: [Double]] = [:]
        for r in table.rows { byTime[Int64((r[t] * 1e6).rounded())] = [r[w], r[x], r[y], r[z]] }
        var compared = 0
        for frame in live {
            guard let time = frame["time"] as? Double, let q = frame["quaternion"] as? [Double],
                let offline = byTime[Int64((time * 1e6).rounded())]
            else { continue }
            compared += 1
            let dot = abs(zip(q, offline).map(*).reduce(0, +))
            #expect(dot > 1 - 1e-9, "t=\(time): live \(q) vs offline \(offline)")
        }
        #expect(compared == live.count, "every live frame's sample is in the recording (\(compared) of \(live.count))")
    }
}
