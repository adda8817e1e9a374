import Foundation
import Testing
import TiltCore
import TiltFusion

/// Picture axes (issue 16): what a turned display does to the device-axis fields, argued physically.
@Suite struct ScreenRotationTests {
    private static let down = Vector3(0, 0, -9.81)

    /// The device upright in front of a viewer who looks north: device x east, y up, z toward the viewer (south),
    /// then turned in its own plane by `angle` (counter-clockwise as the viewer sees it).
    private static func upright(turnedBy angle: Double) -> Quaternion {
        Quaternion(axis: .unitX, angle: .pi / 2) * Quaternion(axis: .unitZ, angle: angle)
    }

    private static func close(_ a: Vector3, _ b: Vector3, _ tolerance: Double = 1e-9) -> Bool {
        (a - b).norm < tolerance
    }

    /// A picture turned r counter-clockwise is upright when the device is turned r clockwise.
    @Test("held so the picture is upright, gravity points down the picture's -y", arguments: ScreenRotation.allCases)
    func gravityPointsDownThePicture(_ rotation: ScreenRotation) {
        let pose = Self.upright(turnedBy: -Double(rotation.degrees) * .pi / 180)
        let gravity = pose.inverseRotate(Self.down)
        #expect(Self.close(rotation.picture(gravity), Vector3(0, -9.81, 0)), "\(rotation.picture(gravity))")
        // Only the unturned picture has the device's axes: held this way, gravity runs along another device axis.
        if rotation != .normal { #expect(!Self.close(gravity, Vector3(0, -9.81, 0), 1)) }
    }

    @Test("the four cases as docs/coordinates.md draws them")
    func theFourCases() {
        let v = Vector3(1, 2, 3)
        #expect(ScreenRotation.normal.picture(v) == Vector3(1, 2, 3))
        // left: the picture's right is the device's +y, its top the device's -x.
        #expect(ScreenRotation.left.picture(v) == Vector3(2, -1, 3))
        #expect(ScreenRotation.inverted.picture(v) == Vector3(-1, -2, 3))
        #expect(ScreenRotation.right.picture(v) == Vector3(-2, 1, 3))
        for rotation in ScreenRotation.allCases {
            #expect(rotation.device(rotation.picture(v)) == v)
        }
    }

    @Test(
        "tipping the picture's top edge toward the viewer gives tilt.x > 0 in its axes",
        arguments: ScreenRotation.allCases)
    func tiltFollowsThePicture(_ rotation: ScreenRotation) {
        // The picture's x axis, in device axes; a rotation about it by +a moves the picture's top toward the viewer.
        let axis = rotation.device(.unitX)
        let tipped = SwingTilt.of(Quaternion(axis: axis, angle: 0.2))
        let picture = rotation.picture(tipped)
        #expect(abs(picture.x - 0.2) < 1e-9 && abs(picture.y) < 1e-9, "\(picture)")
        // Tipping the picture's right edge away: tilt.y > 0.
        let right = rotation.picture(SwingTilt.of(Quaternion(axis: rotation.device(.unitY), angle: 0.1)))
        #expect(abs(right.y - 0.1) < 1e-9 && abs(right.x) < 1e-9, "\(right)")
    }

    @Test func framesTurnAndTurnBack() {
        let frame = AttitudeFrame(
            seq: 1, time: 2, quaternion: Quaternion(axis: .unitY, angle: 0.3), gravity: Vector3(1, 2, -9),
            rotationRate: Vector3(0.1, 0.2, 0.3), userAcceleration: Vector3(-1, 0.5, 0),
            tilt: .init(x: 0.1, y: -0.2), flags: .init(), source: "test")
        let left = ScreenRotation.left.picture(frame)
        #expect(left.axes == .left && left.quaternion == frame.quaternion)
        #expect(left.gravity == Vector3(2, -1, -9) && left.rotationRate == Vector3(0.2, -0.1, 0.3))
        #expect(left.tilt == .init(x: -0.2, y: -0.1))
        // From one picture's axes to another's goes through the device's.
        #expect(ScreenRotation.right.picture(left) == ScreenRotation.right.picture(frame))
        #expect(ScreenRotation.normal.picture(left) == frame)
    }

    @Test func axesNames() {
        #expect(ScreenRotation.allCases.map(\.axesName) == ["device", "screen-90", "screen-180", "screen-270"])
        for rotation in ScreenRotation.allCases { #expect(ScreenRotation(axesName: rotation.axesName) == rotation) }
        #expect(ScreenRotation(axesName: "screen-0") == .normal)
        #expect(ScreenRotation(axesName: "screen-45") == nil && ScreenRotation(degrees: 45) == nil)
    }
}
