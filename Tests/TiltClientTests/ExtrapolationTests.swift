import Foundation
import Testing
import TiltClient
import TiltCore

/// A client carrying the newest frame to its own time of display (issue 30 item 3).
@Suite struct ExtrapolationTests {
    private func frame(rate: Vector3, tilt: AttitudeFrame.Tilt = .init(x: 0.1, y: -0.2), rest: Bool = false)
        -> AttitudeFrame
    {
        let q = Quaternion(euler: .init(roll: 0.1, pitch: 0.2, yaw: 0.3))
        return AttitudeFrame(
            seq: 7, time: 3, quaternion: q, gravity: q.inverseRotate(Vector3(0, 0, -standardGravity)),
            rotationRate: rate, userAcceleration: .zero, tilt: tilt,
            flags: .init(initializing: false, rest: rest, accelDisturbed: false, magDisturbed: false),
            source: "test", mono: 10)
    }

    @Test("between frames the attitude moves on by rate × time, the tilt through the clamp, predicted grows")
    func carriesTheRateForward() {
        let f = frame(rate: Vector3(1, 0.5, 0))
        let later = f.extrapolated(toMonotonic: 10.02)
        let turn = (f.quaternion.conjugate * later.quaternion).rotationVector
        #expect((turn - Vector3(0.02, 0.01, 0)).norm < 1e-12)
        #expect(abs(later.predicted! - 0.02) < 1e-12)
        #expect((later.gravity - later.quaternion.inverseRotate(Vector3(0, 0, -standardGravity))).norm < 1e-12)
        // Near zero the clamp is the identity: the tilt moves by the turn, slowed where it nears the limit.
        #expect(later.tilt.x > 0.1 && later.tilt.x < 0.1 + 0.02)
        #expect(abs(later.tilt.x - 0.1 - 0.02 * (1 - (0.1 / 0.5) * (0.1 / 0.5))) < 3e-4)
        // A frame that was already predicted 15 ms ahead moves only the rest of the way.
        var ahead = f
        ahead.predicted = 0.015
        #expect(abs(ahead.extrapolated(toMonotonic: 10.02).predicted! - 0.02) < 1e-12)
    }

    @Test("never backwards, never past 0.1 s ahead of the sample, never past the clamp; at rest not at all")
    func limits() {
        let f = frame(rate: Vector3(0, 40, 0), tilt: .init(x: 0, y: 0.49))
        #expect(f.extrapolated(toMonotonic: 9.9) == f)
        let far = f.extrapolated(toMonotonic: 11)
        #expect(abs(far.predicted! - 0.1) < 1e-12)
        #expect(far.tilt.y < 0.5 && far.tilt.y > 0.49)
        let still = frame(rate: Vector3(0.003, 0, 0), rest: true)
        #expect(still.extrapolated(toMonotonic: 10.05) == still)
        var unknown = frame(rate: Vector3(1, 0, 0))
        unknown.mono = nil
        #expect(unknown.extrapolated(toMonotonic: 10.05) == unknown)
    }

    @Test("a frame in a turned picture's axes moves the device attitude by the device-axis rate")
    func turnedAxes() {
        let device = frame(rate: Vector3(1, 0, 0))
        let turned = ScreenRotation.left.picture(device)
        let a = device.extrapolated(toMonotonic: 10.03)
        let b = turned.extrapolated(toMonotonic: 10.03)
        #expect(a.quaternion.angle(to: b.quaternion) < 1e-12)
        #expect((ScreenRotation.left.picture(a.gravity) - b.gravity).norm < 1e-12)
        let t = ScreenRotation.left.picture(a.tilt)
        #expect(abs(t.x - b.tilt.x) < 1e-12 && abs(t.y - b.tilt.y) < 1e-12)
    }
}
