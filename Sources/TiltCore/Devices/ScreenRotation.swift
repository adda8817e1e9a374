/// The rotation the display applies to its picture, counter-clockwise as the viewer sees it: xrandr's `normal`
/// (0°), `left` (90°), `inverted` (180°) and `right` (270°).
///
/// A client that names it gets the device-axis fields of its frames (tilt, gravity, rotation rate, user
/// acceleration) in the **picture's** axes: x to the picture's right, y to its top, z out of the screen (the same z
/// as the device's). docs/coordinates.md draws the four cases.
///
/// Derivation for `left`: the picture turns 90° counter-clockwise on the panel, so its top (the device's +y before
/// the turn) now points along the device's −x, and its right (the device's +x) along the device's +y. A vector's
/// picture components are its projections on those axes: `(v·ŷ_device, v·(−x̂_device)) = (v.y, −v.x)`. In general
/// the picture's axes are the device's turned by the rotation, so a vector's components turn the other way:
/// `v_picture = Rz(−rotation) · v_device`.
public enum ScreenRotation: Int, Sendable, Hashable, CaseIterable, Codable {
    case normal = 0
    case left = 90
    case inverted = 180
    case right = 270

    /// The rotation for `degrees` (0, 90, 180 or 270), or `nil` for any other value.
    public init?(degrees: Int) {
        self.init(rawValue: degrees)
    }

    /// Counter-clockwise degrees: 0, 90, 180 or 270.
    public var degrees: Int { rawValue }

    /// What a frame's `axes` field says: `device` when the picture is not turned, else `screen-90` and so on.
    public var axesName: String { self == .normal ? "device" : "screen-\(rawValue)" }

    /// The rotation an `axes` name stands for (`device`, `screen-0`, `screen-90`, …), or `nil`.
    public init?(axesName: String) {
        if axesName == "device" {
            self = .normal
        } else if axesName.hasPrefix("screen-"), let degrees = Int(axesName.dropFirst(7)) {
            self.init(rawValue: degrees)
        } else {
            return nil
        }
    }

    /// `v`, given in the device's axes, in the picture's axes.
    @inlinable public func picture(_ v: Vector3) -> Vector3 {
        switch self {
        case .normal: v
        case .left: Vector3(v.y, -v.x, v.z)
        case .inverted: Vector3(-v.x, -v.y, v.z)
        case .right: Vector3(-v.y, v.x, v.z)
        }
    }

    /// A tilt about the device's x and y axes as a tilt about the picture's.
    ///
    /// The tilt is a rotation vector in the screen's plane, so it turns like any vector. Tilt shaping (1€ filter
    /// and soft clamp, the same for both components, each odd) commutes with a quarter turn, so turning the shaped
    /// tilt equals shaping the turned one.
    @inlinable public func picture(_ tilt: AttitudeFrame.Tilt) -> AttitudeFrame.Tilt {
        let v = picture(Vector3(tilt.x, tilt.y, 0))
        return AttitudeFrame.Tilt(x: v.x, y: v.y)
    }

    /// `frame` with its device-axis fields in the picture's axes and ``AttitudeFrame/axes`` set to this rotation.
    /// The quaternion (device → earth) and the Euler angles are left as they are.
    public func picture(_ frame: AttitudeFrame) -> AttitudeFrame {
        var f = frame
        guard f.axes != self else { return f }
        let back = f.axes
        f.gravity = picture(back.device(frame.gravity))
        f.rotationRate = picture(back.device(frame.rotationRate))
        f.userAcceleration = picture(back.device(frame.userAcceleration))
        let t = back.device(Vector3(frame.tilt.x, frame.tilt.y, 0))
        f.tilt = picture(AttitudeFrame.Tilt(x: t.x, y: t.y))
        f.axes = self
        return f
    }

    /// `v`, given in the picture's axes, back in the device's.
    @inlinable public func device(_ v: Vector3) -> Vector3 {
        switch self {
        case .normal: v
        case .left: Vector3(-v.y, v.x, v.z)
        case .inverted: Vector3(-v.x, -v.y, v.z)
        case .right: Vector3(v.y, -v.x, v.z)
        }
    }
}

extension ScreenRotation {
    /// The rotation X11 RandR reports as a `Rotation` bit set (`RR_Rotate_0` 1, `RR_Rotate_90` 2, `RR_Rotate_180`
    /// 4, `RR_Rotate_270` 8; reflection bits are ignored), or `nil` when no rotation bit is set.
    ///
    /// RandR counts its rotations counter-clockwise, as `screenRotation` does: `xrandr -o left` is `RR_Rotate_90`.
    public init?(randr bits: Int) {
        switch bits & 0xF {
        case 1: self = .normal
        case 2: self = .left
        case 4: self = .inverted
        case 8: self = .right
        default: return nil
        }
    }
}
