import Testing
import TiltCore

@testable import TiltEffects

/// Built-in uniform values derived from a tilt.
@Suite struct FrameInputsTests {
    @Test func flatDeviceHasGravityAlongMinusZ() {
        let inputs = FrameInputs(size: [100, 50])
        #expect(abs(inputs.gravity.z + 9.80665) < 1e-9)
        #expect(inputs.pointer == SIMD2(50, 25))
        #expect(inputs.attitude == SIMD4(0, 0, 0, 1))
    }

    @Test func tiltingTheTopTowardTheViewerTiltsGravityTowardTheTop() {
        // Rotating about +x raises the top edge: gravity in the device frame gains a -y component.
        let inputs = FrameInputs(size: [10, 10], tilt: [0.3, 0])
        #expect(inputs.gravity.y < -1)
        #expect(abs(inputs.euler.x - 0.3) < 1e-9)
    }

    @Test func applyCopiesMotionFields() {
        var inputs = FrameInputs(size: [10, 10])
        let frame = AttitudeFrame(
            seq: 1, time: 2, quaternion: .identity, gravity: Vector3(0, 0, -9.8), rotationRate: Vector3(1, 2, 3),
            userAcceleration: .zero, tilt: .init(x: 0.1, y: -0.2), flags: .init(), source: "test")
        inputs.apply(frame)
        #expect(inputs.tilt == SIMD2(0.1, -0.2))
        #expect(inputs.rotationRate == SIMD3(1, 2, 3))
    }
}
