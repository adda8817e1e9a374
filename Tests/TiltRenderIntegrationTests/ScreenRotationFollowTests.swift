import Foundation
import Testing
import TiltCore
import TiltRenderTestKit
import TiltTestKit

@testable import TiltRender

/// `tiltfx run --screen-rotation`: the choice, what X11 RandR's bits mean, the renderer's ease across a turn, and
/// the subscription that asks `tiltd` for turned frames and follows a change.
@Suite(.serialized) struct ScreenRotationFollowTests {
    @Test func choices() {
        #expect(ScreenRotationChoice(argument: "auto") == .auto)
        #expect(ScreenRotationChoice(argument: "90") == .fixed(.left))
        #expect(ScreenRotationChoice(argument: "270") == .fixed(.right))
        for bad in ["45", "-90", "left", "", "90.0"] { #expect(ScreenRotationChoice(argument: bad) == nil, "\(bad)") }
        #expect(ScreenRotationChoice.fixed(.inverted).initial(display: nil) == .inverted)
        #expect(ScreenRotationChoice.auto.initial(display: nil) == .normal)
    }

    @Test("RandR's rotation bits, counter-clockwise like screenRotation; reflection bits ignored")
    func randrBits() {
        #expect(ScreenRotation(randr: 1) == .normal && ScreenRotation(randr: 2) == .left)
        #expect(ScreenRotation(randr: 4) == .inverted && ScreenRotation(randr: 8) == .right)
        #expect(ScreenRotation(randr: 2 | 16) == .left && ScreenRotation(randr: 1 | 32) == .normal)
        #expect(ScreenRotation(randr: 0) == nil && ScreenRotation(randr: 16) == nil)
    }

    @Test("the tilt eases over 150 ms across a turn, with no jump")
    func easeAcrossATurn() {
        var ease = AxesEase()
        // The device tipped 0.2 rad about its x axis; the display turns to `left` at t = 1 s, and from then on the
        // same pose comes as (0, -0.2) in the picture's axes.
        let device = SIMD2(0.2, 0.0)
        let turned = ScreenRotation.left.picture(AttitudeFrame.Tilt(x: 0.2, y: 0))
        var previous: SIMD2<Double>?
        var biggestStep = 0.0
        var atEnd = SIMD2<Double>.zero
        for ms in stride(from: 900, through: 1300, by: 1) {
            let t = Double(ms) / 1000
            let shown =
                t < 1
                ? ease.ease(device, axes: .normal, at: t)
                : ease.ease(SIMD2(turned.x, turned.y), axes: .left, at: t)
            if let previous {
                let d = shown - previous
                biggestStep = max(biggestStep, (d * d).sum().squareRoot())
            }
            previous = shown
            if ms == 1000 { #expect(shown == device, "the first frame in new axes still shows the old tilt") }
            if ms == 1075 {
                #expect(abs(shown.x - 0.1) < 1e-9 && abs(shown.y + 0.1) < 1e-9, "half way: \(shown)")
            }
            atEnd = shown
        }
        // A jump would be 0.28 in one step; eased, 1 ms steps stay under 1.5·0.28/150.
        #expect(biggestStep < 0.003, "\(biggestStep)")
        #expect(atEnd == SIMD2(turned.x, turned.y))
    }

    @Test func aBadRotationIsAUsageMistake() throws {
        let r = try TiltFXProcess.run([
            "run", "--headless", "--presets", GLTestEnvironment.presetsDirectory, "--preset", "foil",
            "--screen-rotation", "45",
        ])
        #expect(r.status == 64, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("--screen-rotation must be 0, 90, 180, 270 or auto, not '45'"), "\(r.stderr)")
    }

    @Test("the renderer's subscription asks tiltd for turned frames and follows a change")
    func subscriptionFollowsTheRotation() throws {
        let dir = TestPaths.temporaryDirectory("fx-rotation")
        defer { try? FileManager.default.removeItem(at: dir) }
        let daemon = try DaemonProcess.replaying(["--no-power", "--loop"], in: dir)
        let motion = DaemonMotion(
            socketPath: DaemonProcess.temporarySocket(in: dir), rate: 100, screenRotation: .right)
        defer { motion.close() }
        func waitFor(_ axes: ScreenRotation) -> Bool {
            // Generous: a busy machine may take long to start tiltd and connect; a pass returns at once.
            let end = Deadline(seconds: 45)
            while !end.hasPassed {
                if motion.snapshot.frame?.axes == axes { return true }
                Thread.sleep(forTimeInterval: 0.02)
            }
            return false
        }
        #expect(waitFor(.right), "frames in the axes of a picture turned 270°")
        motion.setScreenRotation(.inverted)
        #expect(waitFor(.inverted), "after the display turned, frames in its new axes")
        #expect(daemon.stop() == 0)
    }
}
