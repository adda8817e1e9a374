import CXRandR
import FoundationEssentials
import TiltCore

/// The rotation the X server applies to its screen's picture, read with RandR (`xrandr -o left` and the desktop's
/// display settings set it).
///
/// Only X11 reports it here: under Wayland SDL2 does not give the output's transform, so `auto` stays at 0 there
/// and `--screen-rotation` says it. Reading is one round trip to the server, cheap at once a second.
final class DisplayRotation {
    private let display: OpaquePointer

    /// Connects to `$DISPLAY`; `nil` when there is no X server or it has no RandR.
    init?() {
        guard ProcessInfo.processInfo.environment["DISPLAY"]?.isEmpty == false, let display = XOpenDisplay(nil) else {
            return nil
        }
        var event: Int32 = 0
        var error: Int32 = 0
        guard XRRQueryExtension(display, &event, &error) != 0 else {
            XCloseDisplay(display)
            return nil
        }
        self.display = display
    }

    deinit { XCloseDisplay(display) }

    /// The current rotation of the default screen, if RandR reports one.
    func current() -> ScreenRotation? {
        var rotation: Rotation = 0
        _ = XRRRotations(display, XDefaultScreen(display), &rotation)
        return ScreenRotation(randr: Int(rotation))
    }
}
