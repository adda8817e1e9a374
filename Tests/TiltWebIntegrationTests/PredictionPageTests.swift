import Foundation
import Testing
import TiltClient
import TiltCore
import TiltTestKit
import TiltWire

/// Issue 30 in the browser: tilt.js carries frames to the animation frame's display time exactly as TiltClient does,
/// puts tiltd's `mono` on the page's clock with `tiltfx serve`'s `clock` message, and with `predict: "auto"` asks tiltd
/// to predict the sample-to-display time it measured.
@Suite(
    "motion prediction in Chromium", .serialized,
    .enabled(if: HeadlessChromium.isAvailable, "chromium is not installed (scripts/bootstrap installs it)"))
struct PredictionPageTests {
    /// Frames to carry, with how far: turned axes, a tilt near the clamp, one at rest, one predicted already.
    static let cases: [(frame: AttitudeFrame, seconds: Double)] = {
        func frame(
            _ rate: Vector3, tilt: AttitudeFrame.Tilt, axes: ScreenRotation = .normal, rest: Bool = false,
            predicted: Double? = nil
        ) -> AttitudeFrame {
            let q = Quaternion(euler: .init(roll: 0.3, pitch: -0.2, yaw: 1.1))
            var f = AttitudeFrame(
                seq: 1, time: 2, quaternion: q, gravity: q.inverseRotate(Vector3(0, 0, -standardGravity)),
                rotationRate: rate, userAcceleration: .zero, tilt: tilt,
                flags: .init(initializing: false, rest: rest, accelDisturbed: false, magDisturbed: false),
                source: "test", mono: 100)
            f = axes.picture(f)
            f.rotationRate = rate  // given in the frame's own axes
            f.tilt = tilt
            f.predicted = predicted
            return f
        }
        return [
            (frame(Vector3(1, 0.5, -0.2), tilt: .init(x: 0.1, y: -0.2)), 0.02),
            (frame(Vector3(0.3, -2, 1), tilt: .init(x: 0.45, y: 0.3), axes: .left), 0.05),
            (frame(Vector3(-1, 1, 0), tilt: .init(x: -0.2, y: 0.1), axes: .right), 0.03),
            (frame(Vector3(0.5, 0, 0), tilt: .init(x: 0, y: 0), axes: .inverted, predicted: 0.08), 0.05),
            (frame(Vector3(0.002, 0, 0), tilt: .init(x: 0.01, y: 0), rest: true), 0.05),
        ]
    }()

    @Test("tilt.js's extrapolation is TiltClient's; auto measures the display time and asks tiltd to predict it")
    func pagePredictsLikeTheClient() throws {
        let pages = try ServedPages()
        let browser = try HeadlessChromium()
        let given =
            "["
            + Self.cases.map { "[\(ServerMessage.encode(frame: $0.frame)),\($0.seconds)]" }
            .joined(separator: ",") + "]"
        let query = "test=predict&frames=" + (given.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
        try browser.open(pages.page("example.html", query))
        let result = try browser.testResult()

        let carried = result["carried"] as? [[String: Any]] ?? []
        #expect(carried.count == Self.cases.count)
        for (c, page) in zip(Self.cases, carried) {
            let want = c.frame.extrapolated(toMonotonic: 100 + (c.frame.predicted ?? 0) + c.seconds)
            let q = page["quaternion"] as? [Double] ?? []
            let g = page["gravity"] as? [Double] ?? []
            let t = page["tilt"] as? [Double] ?? []
            #expect(q.count == 4 && zip(q, want.quaternion.array).allSatisfy { abs($0 - $1) < 1e-12 }, "\(q)")
            #expect(g.count == 3 && zip(g, want.gravity.array).allSatisfy { abs($0 - $1) < 1e-9 }, "\(g)")
            #expect(t.count == 2 && abs(t[0] - want.tilt.x) < 1e-12 && abs(t[1] - want.tilt.y) < 1e-12, "\(t)")
            #expect(abs((page["predicted"] as? Double ?? 0) - (want.predicted ?? 0)) < 1e-12)
        }

        // The live part: serve's clock put tiltd's monotonic time on the page's clock; the animation frames (about
        // 60 Hz) were drawn with a prediction, and tiltd was asked for the sample-to-display time measured.
        #expect(result["clockOffset"] is Double, "\(result["clockOffset"] ?? "nil")")
        let drawn = result["drawn"] as? [[String: Any]] ?? []
        #expect(drawn.count == 120)
        #expect(drawn.contains { ($0["predicted"] as? Double ?? 0) > 0 }, "a moving replay is predicted")
        let asked = result["asked"] as? Double ?? 0
        let measured = result["sampleToDisplay"] as? Double ?? 0
        #expect(asked > 0 && asked <= WireProtocol.maxPredict, "asked \(asked) for \(measured) s")
        #expect(abs(asked - min(measured, WireProtocol.maxPredict)) <= 0.0076, "asked \(asked) for \(measured) s")
        let client = (result["status"] as? [String: Any])?["client"] as? [String: Any] ?? [:]
        #expect(abs((client["predict"] as? Double ?? 0) - asked) < 1e-9, "tiltd's status: \(client)")
    }
}
