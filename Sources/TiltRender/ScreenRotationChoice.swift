import TiltCore

/// What `--screen-rotation` asks for: a fixed rotation of the picture, or `auto`, the display's own, followed as it
/// changes.
public enum ScreenRotationChoice: Sendable, Hashable {
    case fixed(ScreenRotation)
    case auto

    /// Parses `0`, `90`, `180`, `270` or `auto`; `nil` for anything else.
    public init?(argument: String) {
        if argument == "auto" {
            self = .auto
        } else if let degrees = Int(argument), let rotation = ScreenRotation(degrees: degrees) {
            self = .fixed(rotation)
        } else {
            return nil
        }
    }

    /// The rotation to watch with first: the fixed one, or (for `auto`) what the display says now, if anything.
    func initial(display: DisplayRotation?) -> ScreenRotation {
        switch self {
        case .fixed(let rotation): rotation
        case .auto: display?.current() ?? .normal
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
