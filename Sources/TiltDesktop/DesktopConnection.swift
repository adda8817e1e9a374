import FoundationEssentials
import TiltCore

/// Opens the desktop of the session the program runs in: Wayland where `WAYLAND_DISPLAY` is set, else X11 where
/// `DISPLAY` is.
package enum DesktopConnection {
    /// The session's desktop, with a surface on every output (or on those named in `outputs`).
    /// - Parameters:
    ///   - shell: the desktop shell's control channel (`tiltfx wallpaper --gnome`): on Wayland the wallpaper is then
    ///     plain windows for the shell to place (``WaylandDesktop/Role-swift.enum/shellWindows``); on X11 its desktop
    ///     windows, as without it; on both, the channel says what covers each output.
    ///   - environment: where `WAYLAND_DISPLAY` and `DISPLAY` are read (an empty value counts as unset).
    /// - Throws: ``DesktopError``: `.noDisplay` when neither is set or the server does not answer, `.unsupported` when
    ///   the compositor has no layer-shell (GNOME's Mutter).
    package static func open(
        outputs: Set<String>?, shell: ShellChannel? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(DesktopError) -> any DesktopSurfaces {
        if let wayland = environment["WAYLAND_DISPLAY"], !wayland.isEmpty {
            return try WaylandDesktop(
                displayName: wayland, outputs: outputs, role: shell == nil ? .layerShell : .shellWindows, shell: shell)
        }
        if let x11 = environment["DISPLAY"], !x11.isEmpty {
            return try X11Desktop(outputs: outputs, displayName: x11, shell: shell)
        }
        throw DesktopError(
            .noDisplay,
            "no display: neither WAYLAND_DISPLAY nor DISPLAY is set; run it in a graphical session, or as the user "
                + "unit tiltfx-wallpaper.service with the session's environment imported (`systemctl --user "
                + "import-environment WAYLAND_DISPLAY DISPLAY`)")
    }
}
