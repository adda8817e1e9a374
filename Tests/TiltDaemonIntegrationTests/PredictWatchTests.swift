import Foundation
import Testing
import TiltCore
import TiltTestKit
import TiltWire

/// Issue 30 item 3 against a real `tiltd` replaying a log that tips: a watcher asking for `predict` gets frames
/// carried ahead along the rotation, beside a plain watcher of the same samples; a bad value is an error.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct PredictWatchTests {
    @Test("a watcher with predict 0.05 gets frames 50 ms ahead of a plain watcher's at the same seq")
    func predictedFramesLeadAlongTheRotation() throws {
        let dir = TestPaths.temporaryDirectory("predict")
        defer { try? FileManager.default.removeItem(at: dir) }
        let daemon = try DaemonProcess.replaying(["--no-power"], log: try TippingLog.write(in: dir), in: dir)
        let (plain, _) = try daemon.greetedClient()
        let (ahead, _) = try daemon.greetedClient()
        try plain.send(#"{"cmd":"watch","rate":1000}"#)
        try ahead.send(#"{"cmd":"watch","rate":1000,"predict":0.05}"#)
        var seen: [[UInt64: AttitudeFrame]] = [[:], [:]]
        let end = Deadline(seconds: 2.5)
        while !end.hasPassed {
            for (i, client) in [plain, ahead].enumerated() {
                for line in client.readLines(until: Deadline(seconds: 0.05)) {
                    if case .attitude(let frame)? = try? ServerMessage.decode(Array(line.utf8)) {
                        seen[i][frame.seq] = frame
                    }
                }
            }
        }
        let common = Set(seen[0].keys).intersection(seen[1].keys)
        #expect(common.count > 50, "frames both clients got: \(common.count)")
        var turning = 0
        for seq in common {
            let fused = try #require(seen[0][seq])
            let predicted = try #require(seen[1][seq])
            #expect(fused.predicted == nil)
            guard predicted.predicted != nil else { continue }  // the horizon started after this sample
            #expect(predicted.predicted == 0.05)
            #expect(predicted.rotationRate == fused.rotationRate && predicted.time == fused.time)
            let lead = (fused.quaternion.conjugate * predicted.quaternion).rotationVector
            let rate = fused.rotationRate
            // Never more than twice what the rate turns through in 50 ms, never against it.
            #expect(lead.norm <= 2 * rate.norm * 0.05 + 1e-9, "seq \(seq): lead \(lead), rate \(rate)")
            #expect(lead.x * rate.x + lead.y * rate.y + lead.z * rate.z >= -1e-12)
            if rate.norm > 0.2, lead.norm > 0.3 * rate.norm * 0.05 { turning += 1 }
        }
        #expect(turning > 0, "the log tips, so some frames must lead")
        let status = try #require(try ahead.status())
        let me = try #require(status["client"] as? [String: Any])
        #expect(me["predict"] as? Double == 0.05, "\(me)")
        #expect(daemon.stop() == 0)
    }

    @Test("a predict out of 0 … 0.1 s gets an error naming the range, and the connection goes on")
    func outOfRangeIsAnError() throws {
        let dir = TestPaths.temporaryDirectory("predict-bad")
        defer { try? FileManager.default.removeItem(at: dir) }
        let daemon = try DaemonProcess.replaying(["--no-power", "--no-mag"], in: dir)
        let (client, _) = try daemon.greetedClient()
        let error = try #require(try client.request(#"{"cmd":"watch","predict":0.25}"#, expecting: "error"))
        #expect((error["message"] as? String)?.contains("'predict' must be from 0 to 0.1 seconds") == true, "\(error)")
        let status = try #require(try client.status())
        #expect((status["client"] as? [String: Any])?["watching"] as? Bool == false, "the bad watch changed nothing")
        #expect(daemon.stop() == 0)
    }
}
