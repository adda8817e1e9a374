import Foundation
import Testing
import TiltTestKit

#if canImport(Glibc)
    import Glibc
#endif

/// Lines collected on another thread; read only after that thread is done (the DispatchGroup wait orders it).
private final class LinesBox: @unchecked Sendable {
    var lines: [String] = []
}

/// The real `tiltd` binary on the bundled log, driven through its socket by plain test clients.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct DaemonEndToEndTests {
    private func frames(in lines: [String]) -> [[String: Any]] {
        lines.compactMap(LineSocket.parse).filter { $0["class"] as? String == "attitude" }
    }

    @Test("two watchers get their own rates, in order, with unit quaternions; a stalled client is dropped, not queued")
    func ratesOrderAndStalledClient() throws {
        let dir = TestPaths.temporaryDirectory()
        let path = DaemonProcess.temporarySocket(in: dir)
        let daemon = try DaemonProcess.replaying(["--speed", "4", "--loop"], in: dir)

        let (slow, hello) = try daemon.greetedClient()
        let fast = try daemon.connect()
        let stalled = try daemon.connect()
        stalled.setReceiveBuffer(4096)
        #expect(hello["protocol"] as? Int == 1)
        #expect((hello["daemon"] as? String)?.hasPrefix("tiltd ") == true)
        #expect(hello["power"] is [String: Any])

        try stalled.send(#"{"cmd":"watch","rate":200}"#)
        // Both windows end 3 s after the watch commands went out, however late a reader starts.
        let end = Deadline(seconds: 3)
        try slow.send(#"{"cmd":"watch","rate":10}"#)
        try fast.send(#"{"cmd":"watch","rate":50}"#)
        let fastResult = LinesBox()
        let reader = DispatchGroup()
        DispatchQueue.global().async(group: reader) { fastResult.lines = fast.readLines(until: end) }
        let slowLines = slow.readLines(until: end)
        reader.wait()
        let fastLines = fastResult.lines

        let slowFrames = frames(in: slowLines)
        let fastFrames = frames(in: fastLines)
        // Rates are wall-clock rates. Neither watcher gets more than its rate allows (its schedule's 5 % tolerance
        // and the first frame at once); a machine too busy to keep up gives both fewer, and the frames a watcher
        // gets are then the samples that came, so a 50 Hz watcher gets more than twice a 10 Hz one's as long as
        // tiltd fuses more than 20 samples a second.
        #expect(slowFrames.count <= 36, "10 Hz for 3 s gave \(slowFrames.count) frames")
        #expect(fastFrames.count <= 165, "50 Hz for 3 s gave \(fastFrames.count) frames")
        #expect(slowFrames.count >= 10, "10 Hz for 3 s gave only \(slowFrames.count) frames")
        #expect(
            fastFrames.count > 2 * slowFrames.count,
            "50 Hz gave \(fastFrames.count) frames and 10 Hz \(slowFrames.count) in the same 3 s")
        for frames in [slowFrames, fastFrames] {
            let seqs = frames.compactMap { $0["seq"] as? Int }
            #expect(seqs.count == frames.count)
            #expect(zip(seqs, seqs.dropFirst()).allSatisfy { $0 < $1 }, "sequence numbers must increase")
            for f in frames {
                let q = try #require(f["quaternion"] as? [Double])
                #expect(q.count == 4)
                let norm = q.reduce(0) { $0 + $1 * $1 }.squareRoot()
                #expect(abs(norm - 1) < 1e-6)
                let tilt = try #require(f["tilt"] as? [Double])
                #expect(tilt.count == 2 && tilt.allSatisfy { abs($0) < 0.5 })
                #expect(f["euler"] is [String: Any] && f["gravity"] is [Double] && f["flags"] is [String: Any])
            }
        }

        // The stalled client now reads: it finds a bounded amount of old frames, then its status says it lost some.
        try stalled.send(#"{"cmd":"status"}"#)
        var backlog = 0
        var status: [String: Any]?
        while let line = stalled.readLine(timeout: 5) {
            guard let object = LineSocket.parse(line) else { continue }
            if object["class"] as? String == "attitude" { backlog += 1 }
            if object["class"] as? String == "status" {
                status = object
                break
            }
        }
        let report = try #require(status)
        let client = try #require(report["client"] as? [String: Any])
        let dropped = try #require(client["dropped"] as? Int)
        #expect(dropped > 0, "a client that does not read must have frames dropped")
        #expect(backlog < 300, "no unbounded backlog: \(backlog) frames were queued")
        #expect(report["watchers"] as? Int == 3)

        #expect(daemon.stop() == 0)
        #expect(!FileManager.default.fileExists(atPath: path), "the socket file is removed at shutdown")
        try? FileManager.default.removeItem(at: dir)
    }

    @Test("bad lines get errors and the connection stays usable; poll, status and tare answer")
    func errorsPollStatusTare() throws {
        let dir = TestPaths.temporaryDirectory()
        let path = DaemonProcess.temporarySocket(in: dir)
        let daemon = try DaemonProcess.replaying(["--speed", "4"], in: dir)
        let (client, _) = try daemon.greetedClient()

        for garbage in ["hello there", #"{"cmd":"fly"}"#, #"{"cmd":"watch","rate":-3}"#, "[1,2,3]", #"{"rate":5}"#] {
            try client.send(garbage)
            let error = try #require(client.read(class: "error"), "no error for \(garbage)")
            #expect((error["message"] as? String)?.isEmpty == false)
        }
        // An over-long line (100 KiB, over the 64 KiB cap) is refused once, then the next line works.
        try client.sendRaw(Array(repeating: UInt8(ascii: "x"), count: 100 * 1024) + [UInt8(ascii: "\n")])
        let overlong = try #require(client.read(class: "error"))
        #expect((overlong["message"] as? String)?.contains("too long") == true)

        let polled = try #require(try client.request(#"{"cmd":"poll"}"#, expecting: "attitude", timeout: 10))
        #expect(polled["seq"] is Int)

        try client.send(#"{"cmd":"watch","rate":30}"#)
        _ = try #require(client.read(class: "attitude"))
        let tare = try #require(try client.request(#"{"cmd":"tare"}"#, expecting: "tare"))
        let reference = try #require(tare["reference"] as? [Double])
        #expect(reference.count == 4)
        #expect(abs(reference.reduce(0) { $0 + $1 * $1 } - 1) < 1e-6)
        // The next frames are relative to the new reference: close to zero tilt right after the tare.
        let after = try #require(client.read(class: "attitude"))
        let tilt = try #require(after["tilt"] as? [Double])
        #expect(abs(tilt[0]) < 0.05 && abs(tilt[1]) < 0.05, "tilt right after tare: \(tilt)")

        let status = try #require(try client.status())
        let me = try #require(status["client"] as? [String: Any])
        #expect(me["errors"] as? Int == 6)
        #expect(me["watching"] as? Bool == true)
        #expect((status["samples"] as? Int ?? 0) > 0)
        #expect(status["sensor"] as? String == "active")

        #expect(daemon.stop(signal: SIGINT) == 0)
        #expect(!FileManager.default.fileExists(atPath: path))
        try? FileManager.default.removeItem(at: dir)
    }

    @Test("the sensor runs only while someone watches")
    func sensorOnDemand() throws {
        let dir = TestPaths.temporaryDirectory()
        let daemon = try DaemonProcess.replaying(["--speed", "4"], in: dir)
        let (client, _) = try daemon.greetedClient()
        func status() throws -> [String: Any] {
            guard let report = try client.status() else { throw TestError("no status within 5 s") }
            return report
        }
        let idle = try status()
        #expect(idle["sensor"] as? String == "idle")
        #expect(idle["samples"] as? Int == 0, "nothing is read before anyone watches")

        let active = try #require(try client.request(#"{"cmd":"watch","rate":20}"#, expecting: "sensor"))
        #expect(active["state"] as? String == "active")
        _ = try #require(client.read(class: "attitude"))
        let stopped = try #require(try client.request(#"{"cmd":"watch","enable":false}"#, expecting: "sensor"))
        #expect(stopped["state"] as? String == "idle")
        let first = try #require(try status()["samples"] as? Int)
        usleep(500_000)
        let second = try #require(try status()["samples"] as? Int)
        #expect(first == second, "no samples are fused while nobody watches")
        daemon.stop()
        try? FileManager.default.removeItem(at: dir)
    }

    @Test("a stale socket file is replaced; a live daemon's socket is not taken over")
    func staleAndLiveSockets() throws {
        let dir = TestPaths.temporaryDirectory()
        let path = DaemonProcess.temporarySocket(in: dir)
        // A socket file nobody listens on, as a crashed daemon leaves behind.
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (i, b) in Array(path.utf8).enumerated() { raw[i] = b }
        }
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        #expect(bound == 0)
        close(fd)
        #expect(FileManager.default.fileExists(atPath: path))

        let first = try DaemonProcess.replaying(in: dir)
        let client = try first.connect()
        _ = try #require(client.read(class: "hello"), "the daemon took over the stale socket")

        let second = try DaemonProcess.replaying(in: dir)
        let status = second.waitForExit(timeout: 10)
        #expect(status != nil && status != 0, "a second daemon must refuse a live socket")
        #expect(second.log.contains("already serving"))
        // The first one still serves.
        #expect(try client.status() != nil)
        #expect(first.stop() == 0)
        try? FileManager.default.removeItem(at: dir)
    }

    @Test("a corrupt row mid-log is skipped and counted, and the daemon keeps serving")
    func corruptRowIsSkipped() throws {
        let dir = TestPaths.temporaryDirectory()
        let log = dir.appendingPathComponent("bad.csv").path
        var text = "# sampling_rate_hz=100\nt,gyr_x,gyr_y,gyr_z,acc_x,acc_y,acc_z\n"
        for i in 0..<300 {
            let t = Double(i) / 100
            text += i == 120 ? "\(t),0,0,zero,0,0,9.81\n" : "\(t),0,0,0.1,0,0,9.81\n"
        }
        try text.write(toFile: log, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess.replaying(["--speed", "10"], log: log, in: dir)
        let client = try daemon.connect()
        try client.send(#"{"cmd":"watch","rate":100}"#)
        let finished = try #require(
            client.read(class: "sensor", timeout: 10).flatMap {
                $0["state"] as? String == "active" ? client.read(class: "sensor", timeout: 10) : $0
            })
        #expect(finished["state"] as? String == "finished")
        let status = try #require(try client.status())
        #expect(status["rejected"] as? Int == 1)
        #expect(status["samples"] as? Int == 299)
        let reason = try #require(status["lastRejection"] as? String)
        #expect(reason.contains("bad.csv:123") && reason.contains("gyr_z"), "\(reason)")
        #expect(daemon.log.contains("gyr_z"))
        daemon.stop()
        try? FileManager.default.removeItem(at: dir)
    }

    @Test("a missing log is a clear error and a non-zero exit")
    func missingLog() throws {
        let dir = TestPaths.temporaryDirectory()
        let daemon = try DaemonProcess.replaying(log: "/nonexistent/log.csv", in: dir)
        let status = daemon.waitForExit(timeout: 10)
        #expect(status == 1)
        #expect(daemon.log.contains("/nonexistent/log.csv") && daemon.log.contains("cannot open"))
        try? FileManager.default.removeItem(at: dir)
    }
}
