import TiltCore

/// What `--screen-rotation` asks for: a fixed rotation of the picture, or `auto`, the display's own, followed as it
/// changes.
package enum ScreenRotationChoice: Sendable, Hashable {
    case fixed(ScreenRotation)
    case auto

    /// Parses `0`, `90`, `180`, `270` or `auto`; `nil` for anything else.
    package init?(argument: String) {
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
        initial(auto: display?.current() ?? .normal)
    }

    /// The fixed rotation, or (for `auto`) `display`'s, what the display says now.
    func initial(auto display: @autoclosure () -> ScreenRotation) -> ScreenRotation {
        switch self {
        case .fixed(let rotation): rotation
        case .auto: display()
        }
    }
}
