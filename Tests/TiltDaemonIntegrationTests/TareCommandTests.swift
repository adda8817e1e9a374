import Foundation
import Testing
import TiltTestKit

/// `tilt tare` tares on the pose of the moment, or says that nothing was tared.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct TareCommandTests {
    private let tilt = TestPaths.executable("tilt")

    @Test("with no one watching (the sensor idle or stopping), tilt tare starts it, tares and says so")
    func tareWithNoWatcher() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let daemon = try DaemonProcess.replaying(["--loop"], in: dir)
        defer { daemon.stop() }
        _ = try daemon.greetedClient()
        let r = try ChildProcess.run(tilt, ["tare", "--socket", DaemonProcess.temporarySocket(in: dir)], timeout: 30)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("tare: the tilt is now relative to ["), "\(r.stdout)")
    }

    @Test("a finished replay has no pose now: tilt tare fails and says that nothing was tared")
    func tareAfterTheSensorFinished() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("short.csv").path
        var text = "# sampling_rate_hz=100\nt,gyr_x,gyr_y,gyr_z,acc_x,acc_y,acc_z\n"
        for i in 0..<100 { text += "\(Double(i) / 100),0,0,0,0,0,9.81\n" }
        try text.write(toFile: log, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess.replaying(["--speed", "10"], log: log, in: dir)
        defer { daemon.stop() }
        let client = try daemon.connect()
        try client.send(#"{"cmd":"watch","rate":100}"#)
        var state: String?
        while let event = client.read(class: "sensor", timeout: 20) {
            state = event["state"] as? String
            if state == "finished" { break }
        }
        try #require(state == "finished", "the replay finished")
        let r = try ChildProcess.run(tilt, ["tare", "--socket", DaemonProcess.temporarySocket(in: dir)], timeout: 30)
        #expect(r.status == 1, "\(r.stdout) \(r.stderr)")
        #expect(r.stderr.contains("tiltd's sensor is finished"), "\(r.stderr)")
        #expect(r.stderr.contains("nothing was changed"), "\(r.stderr)")
        #expect(!r.stdout.contains("tare:"), "\(r.stdout)")
    }
}
