import FoundationEssentials
import TiltCore

/// Opens the desktop of the session the program runs in: Wayland where `WAYLAND_DISPLAY` is set, else X11 where
/// `DISPLAY` is.
public enum DesktopConnection {
    /// The session's desktop, with a surface on every output (or on those named in `outputs`).
    /// - Parameter environment: where `WAYLAND_DISPLAY` and `DISPLAY` are read (an empty value counts as unset).
    /// - Throws: ``DesktopError``: `.noDisplay` when neither is set or the server does not answer, `.unsupported` when
    ///   the compositor has no layer-shell (GNOME's Mutter).
    public static func open(
        outputs: Set<String>?, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(DesktopError) -> any DesktopSurfaces {
        if let wayland = environment["WAYLAND_DISPLAY"], !wayland.isEmpty {
            return try WaylandDesktop(displayName: wayland, outputs: outputs)
        }
        if let x11 = environment["DISPLAY"], !x11.isEmpty {
            return try X11Desktop(outputs: outputs, displayName: x11)
        }
        throw DesktopError(
            .noDisplay,
            "no display: neither WAYLAND_DISPLAY nor DISPLAY is set; run it in a graphical session, or as the user "
                + "unit tiltfx-wallpaper.service with the session's environment imported (`systemctl --user "
                + "import-environment WAYLAND_DISPLAY DISPLAY`)")
    }
}
