import Foundation
import Testing
import TiltCore
import TiltTestKit
import TiltWire

/// Issue 16 items 1 and 5 against a real `tiltd` replaying the BROAD excerpt: frames in a turned picture's axes, and
/// the 6D attitude for the clients that ask for it.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct ScreenAxesTests {
    /// Reads frames from each client in turn for `seconds`, keyed by `seq`.
    private func frames(from clients: [LineSocket], seconds: Double) -> [[UInt64: AttitudeFrame]] {
        frames(from: clients, logSeconds: .infinity, timeout: seconds)
    }

    /// Frames from each client, by `seq`, until every client's frames span `logSeconds` of the log's own time (their
    /// `time`), however slowly a busy machine replays it; at most `timeout` seconds of waiting.
    private func frames(
        from clients: [LineSocket], logSeconds: Double, timeout: Double = 45
    ) -> [[UInt64: AttitudeFrame]] {
        var collected = Array(repeating: [UInt64: AttitudeFrame](), count: clients.count)
        var spans = Array(repeating: (first: Double?.none, last: 0.0), count: clients.count)
        let end = Deadline(seconds: timeout)
        func spanned(_ span: (first: Double?, last: Double)) -> Bool {
            guard let first = span.first else { return false }
            return span.last - first >= logSeconds
        }
        while !end.hasPassed, !spans.allSatisfy(spanned) {
            for (i, client) in clients.enumerated() {
                for line in client.readLines(until: Deadline(seconds: 0.05)) {
                    if case .attitude(let frame)? = try? ServerMessage.decode(Array(line.utf8)) {
                        collected[i][frame.seq] = frame
                        spans[i].first = spans[i].first ?? frame.time
                        spans[i].last = max(spans[i].last, frame.time)
                    }
                }
            }
        }
        return collected
    }

    /// A log that lies flat for half a second, then tips about x and y at once (0.3 and 0.15 rad) and lies still.
    private func tippingLog(in dir: URL) throws -> String { try TippingLog.write(in: dir) }

    private static func close(_ a: Vector3, _ b: Vector3) -> Bool { (a - b).norm < 1e-9 }

    @Test("four clients at rotations 0, 90, 180 and 270 at once: tilt and gravity turn as the math says")
    func rotationsTurnTheDeviceAxisFields() throws {
        let dir = TestPaths.temporaryDirectory("axes")
        defer { try? FileManager.default.removeItem(at: dir) }
        let daemon = try DaemonProcess.replaying(["--no-power"], log: try tippingLog(in: dir), in: dir)
        var clients: [LineSocket] = []
        for rotation in ScreenRotation.allCases {
            let (client, _) = try daemon.greetedClient()
            try client.send(#"{"cmd":"watch","rate":1000,"screenRotation":\#(rotation.degrees)}"#)
            clients.append(client)
        }
        let seen = frames(from: clients, seconds: 2)
        let common = Set(seen[0].keys).intersection(seen[1].keys).intersection(seen[2].keys).intersection(seen[3].keys)
        #expect(common.count > 50, "frames with the same seq at every rotation: \(common.count)")
        var tilted = 0
        for seq in common {
            let device = try #require(seen[0][seq])
            #expect(device.axes == .normal)
            if abs(device.tilt.x) > 0.01 || abs(device.tilt.y) > 0.01 { tilted += 1 }
            for (i, rotation) in ScreenRotation.allCases.enumerated().dropFirst() {
                let turned = try #require(seen[i][seq])
                #expect(turned.axes == rotation)
                #expect(turned.quaternion == device.quaternion, "the quaternion stays device → earth")
                #expect(Self.close(turned.gravity, rotation.picture(device.gravity)))
                #expect(Self.close(turned.rotationRate, rotation.picture(device.rotationRate)))
                #expect(Self.close(turned.userAcceleration, rotation.picture(device.userAcceleration)))
                let expected = rotation.picture(device.tilt)
                #expect(abs(turned.tilt.x - expected.x) < 1e-12 && abs(turned.tilt.y - expected.y) < 1e-12)
            }
        }
        #expect(tilted > 0, "the replay tilts, so the comparison is not between zeros")
        // Status shows each client's choice.
        let status = try #require(try clients[1].status())
        let me = try #require(status["client"] as? [String: Any])
        #expect(me["screenRotation"] as? Int == 90 && me["magnetometer"] == nil, "\(me)")
        #expect(daemon.stop() == 0)
    }

    @Test("a bad screenRotation gets an error and the connection goes on")
    func badRotationIsAnError() throws {
        let dir = TestPaths.temporaryDirectory("axes-bad")
        defer { try? FileManager.default.removeItem(at: dir) }
        let daemon = try DaemonProcess.replaying(["--no-power", "--no-mag"], in: dir)
        let (client, _) = try daemon.greetedClient()
        let error = try #require(try client.request(#"{"cmd":"watch","screenRotation":45}"#, expecting: "error"))
        #expect((error["message"] as? String)?.contains("must be 0, 90, 180 or 270") == true, "\(error)")
        // 9D asked of a daemon that fuses without the magnetometer: refused, said why.
        let noMag = try #require(try client.request(#"{"cmd":"watch","magnetometer":true}"#, expecting: "error"))
        #expect((noMag["message"] as? String)?.hasPrefix("no magnetometer") == true, "\(noMag)")
        let status = try #require(try client.status())
        let me = try #require(status["client"] as? [String: Any])
        #expect(me["errors"] as? Int == 2 && me["watching"] as? Bool == false, "\(me)")
        // The main filter is 6D here: magnetometer:false shares it, no second filter runs.
        try client.send(#"{"cmd":"watch","rate":100,"magnetometer":false,"screenRotation":180}"#)
        let frame = try #require(client.read(class: "attitude"))
        #expect(frame["reference"] as? String == "game" && frame["axes"] as? String == "screen-180", "\(frame)")
        let after = try #require(try client.status())
        #expect(after["filters"] as? [String] == ["game"], "\(after)")
        #expect(daemon.stop() == 0)
    }

    @Test("tilt watch --screen-rotation N --no-magnetometer prints turned 6D frames; a bad N is a usage mistake")
    func watchCommandPassesBoth() throws {
        let dir = TestPaths.temporaryDirectory("axes-cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let daemon = try DaemonProcess.replaying(["--no-power"], in: dir)
        let socket = DaemonProcess.temporarySocket(in: dir)
        let r = try ChildProcess.run(
            TestPaths.executable("tilt"),
            ["watch", "--json", "--count", "3", "--screen-rotation", "90", "--no-magnetometer", "--socket", socket])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        for line in lines {
            let frame = try #require(LineSocket.parse(String(line)))
            #expect(frame["axes"] as? String == "screen-90" && frame["reference"] as? String == "game", "\(line)")
        }
        let bad = try ChildProcess.run(
            TestPaths.executable("tilt"), ["watch", "--screen-rotation", "45", "--socket", socket])
        #expect(bad.status == 64 && bad.stderr.contains("--screen-rotation must be 0, 90, 180 or 270"), "\(bad.stderr)")
        #expect(daemon.stop() == 0)
    }

    @Test("magnetometer:false gets the 6D attitude: inclination agrees, heading differs; its filter stops with it")
    func gameRotationRunsOnlyWhileAsked() throws {
        let dir = TestPaths.temporaryDirectory("axes-6d")
        defer { try? FileManager.default.removeItem(at: dir) }
        // Fast, so that the 9D heading has time to settle on magnetic north.
        let daemon = try DaemonProcess.replaying(["--no-power", "--speed", "8"], in: dir)
        let (nine, _) = try daemon.greetedClient()
        try nine.send(#"{"cmd":"watch","rate":1000}"#)
        _ = try #require(nine.read(class: "attitude"))
        #expect(try nine.status()?["filters"] as? [String] == ["magnetic"])

        var sixClient: LineSocket? = try daemon.greetedClient().client
        try sixClient?.send(#"{"cmd":"watch","rate":1000,"magnetometer":false}"#)
        // Let the 6D filter converge, then compare frames of the same samples: 12 s of the log each (1.5 s at
        // --speed 8 on an idle machine), by the frames' own time, so a busy machine only takes longer.
        _ = frames(from: [nine, try #require(sixClient)], logSeconds: 12)
        let seen = frames(from: [nine, try #require(sixClient)], logSeconds: 12)
        let common = Set(seen[0].keys).intersection(seen[1].keys)
        #expect(common.count > 50, "\(common.count)")
        var worstGravity = 0.0
        var yawGap = 0.0
        for seq in common {
            let a = try #require(seen[0][seq])
            let b = try #require(seen[1][seq])
            #expect(a.reference == .magnetic && b.reference == .game)
            worstGravity = max(worstGravity, (a.gravity - b.gravity).norm)
            let gap = abs(remainder(a.euler.yaw - b.euler.yaw, 2 * .pi))
            yawGap = max(yawGap, gap)
        }
        #expect(worstGravity < 0.5, "inclination agrees: gravity within \(worstGravity) m/s²")
        #expect(yawGap > 0.05, "heading differs: the 6D heading is free, \(yawGap) rad from the magnetic one")
        let status = try #require(try sixClient?.status())
        #expect(status["filters"] as? [String] == ["magnetic", "game"], "\(status)")
        let me = try #require(status["client"] as? [String: Any])
        #expect(me["magnetometer"] as? Bool == false && me["screenRotation"] as? Int == 0, "\(me)")

        // A tare re-centres both attitudes on the same pose: their tilts agree after it, as before it.
        _ = try #require(try nine.request(#"{"cmd":"tare"}"#, expecting: "tare"))
        let tared = frames(from: [nine, try #require(sixClient)], seconds: 0.5)
        var worstTilt = 0.0
        for seq in Set(tared[0].keys).intersection(tared[1].keys) {
            let a = try #require(tared[0][seq])
            let b = try #require(tared[1][seq])
            worstTilt = max(worstTilt, abs(a.tilt.x - b.tilt.x), abs(a.tilt.y - b.tilt.y))
        }
        #expect(worstTilt < 0.05, "9D and 6D tilts after a tare differ by \(worstTilt) rad")

        // The 6D client leaves (its socket closes).
        sixClient = nil
        var filters: [String]?
        for _ in 0..<50 where filters != ["magnetic"] {
            filters = try nine.status()?["filters"] as? [String]
            if filters != ["magnetic"] { Thread.sleep(forTimeInterval: 0.05) }
        }
        #expect(filters == ["magnetic"], "the 6D filter stops when its last watcher leaves")
        #expect(daemon.stop() == 0)
    }
}
