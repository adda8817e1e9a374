import Foundation
import Testing
import TiltCore
import TiltTestKit
import TiltWire

@testable import TiltDaemon

#if canImport(Glibc)
    import Glibc
#endif

/// Undoing a tare (`{"cmd":"tare","reset":true}`, `tilt tare --reset`): the tilt goes back to what it was before
/// any tare, and only those who may tare may undo one.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct TareResetTests {
    @Test func theDispatcherAuthorisesAResetLikeATare() throws {
        let hub = Hub(sourceName: "replay:x", sensors: [], calibration: "none: test", calibrated: false)
        let first = Quaternion(axis: .unitX, angle: 0.1)
        let current = Quaternion(axis: .unitY, angle: 0.4)
        hub.setTareAction { current }
        hub.setResetTareAction { first }
        let dispatcher = CommandDispatcher(hub: hub, settings: DaemonSettings(policy: ServicePolicy(), daemonUID: 500))
        final class Sink: ClientSink {
            func deliver(_ line: WireLine, kind: Delivery) -> Bool { true }
            func close() async {}
        }
        let id = try #require(hub.register(Sink()))
        var authority = CommandAuthority { _ in [] }
        guard
            case .refused(command: "tare", let message) = dispatcher.dispatch(
                .resetTare, id: id, authority: &authority, errors: 0)
        else {
            Issue.record("a reset from an unknown peer is not refused")
            return
        }
        #expect(message.hasPrefix("tare refused"), "\(message)")
        authority.peer = PeerCredentials(uid: 65534, gid: 65534, pid: 1)
        guard case .refused = dispatcher.dispatch(.resetTare, id: id, authority: &authority, errors: 0) else {
            Issue.record("a reset from another uid is not refused")
            return
        }
        authority.peer = PeerCredentials(uid: 500, gid: 500, pid: 1)
        #expect(
            dispatcher.dispatch(.tare, id: id, authority: &authority, errors: 0)
                == .tared(reference: current, hadAttitude: true))
        #expect(
            dispatcher.dispatch(.resetTare, id: id, authority: &authority, errors: 0)
                == .tared(reference: first, hadAttitude: true))
    }

    /// A log that lies flat for a second, tips 0.3 rad about x over half a second, then lies still.
    private func tippedLog(in dir: URL) throws -> String {
        var motion = SyntheticMotion()
        motion.rate = 100
        motion.magneticField = nil
        motion.angularVelocity = { t in t >= 1 && t < 1.5 ? Vector3(0.6, 0, 0) : .zero }
        let path = dir.appendingPathComponent("tipped.csv").path
        try CalibrationFixtures.writeLog(motion.generate(duration: 30).samples, to: path)
        return path
    }

    /// Reads frames until one's tilt satisfies `done`, for at most `timeout` seconds.
    private func tilt(
        from client: LineSocket, timeout: Double = 8, until done: ([Double]) -> Bool
    ) -> [Double]? {
        let end = Deadline(seconds: timeout)
        while !end.hasPassed {
            guard let frame = client.read(class: "attitude", timeout: 2), let tilt = frame["tilt"] as? [Double] else {
                continue
            }
            if done(tilt) { return tilt }
        }
        return nil
    }

    @Test("tare, then tare with reset: the tilt comes back to its un-tared value")
    func resetBringsTheUntaredTiltBack() throws {
        let dir = TestPaths.temporaryDirectory("untare")
        defer { try? FileManager.default.removeItem(at: dir) }
        let daemon = try DaemonProcess.replaying(["--speed", "2", "--no-power"], log: try tippedLog(in: dir), in: dir)
        let (client, _) = try daemon.greetedClient()
        try client.send(#"{"cmd":"watch","rate":50}"#)
        // Un-tared, the tilt is the 0.3 rad tip from the first pose, soft-clamped: 0.5·tanh(0.6) ≈ 0.268.
        var last: [Double] = []
        let untared = try #require(
            tilt(from: client) { tilt in
                defer { last = tilt }
                return tilt[0] > 0.25 && !last.isEmpty && abs(tilt[0] - last[0]) < 1e-4
            }, "the tilt settles at the tip")
        #expect(abs(untared[0] - 0.5 * tanh(0.6)) < 0.01 && abs(untared[1]) < 0.01, "\(untared)")

        let tare = try #require(try client.request(#"{"cmd":"tare"}"#, expecting: "tare"))
        let tareReference = try #require(tare["reference"] as? [Double])
        #expect(tilt(from: client) { abs($0[0]) < 0.01 && abs($0[1]) < 0.01 } != nil, "tared: the tilt is about 0")

        let reset = try #require(try client.request(#"{"cmd":"tare","reset":true}"#, expecting: "tare"))
        let firstReference = try #require(reset["reference"] as? [Double])
        let dot = abs(zip(tareReference, firstReference).map(*).reduce(0, +))
        #expect(abs(dot - cos(0.15)) < 0.01, "the first pose is 0.3 rad from the tared one: \(firstReference)")
        let back = try #require(tilt(from: client) { _ in true }, "frames after the reset")
        #expect(abs(back[0] - untared[0]) < 0.01 && abs(back[1] - untared[1]) < 0.01, "\(back) vs \(untared)")

        // `tilt tare --reset` sends the same command and names the first pose again.
        let cli = try ChildProcess.run(
            TestPaths.executable("tilt"), ["tare", "--reset", "--socket", DaemonProcess.temporarySocket(in: dir)])
        #expect(cli.status == 0, "\(cli.stderr)")
        let printed = firstReference.map { String(format: "%.4f", $0) }.joined(separator: ", ")
        #expect(cli.stdout == "tare reset: the tilt is now relative to [\(printed)]\n", "\(cli.stdout)")
        #expect(daemon.stop() == 0)
    }
}
