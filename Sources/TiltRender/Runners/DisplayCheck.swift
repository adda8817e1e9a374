/// Whether `tiltfx run` has a display to open its window on.
///
/// With neither `$DISPLAY` nor `$WAYLAND_DISPLAY`, SDL may still "succeed" on a driver that shows nothing, leaving an
/// invisible window that runs until killed. Naming a driver in `$SDL_VIDEODRIVER` is a deliberate choice (the
/// tests use `offscreen`; a console may use `kmsdrm`), so it is honoured.
package enum DisplayCheck {
    /// SDL video drivers that open no window anyone can see.
    static let invisibleDrivers: Set<String> = ["offscreen", "dummy", "evdev"]

    /// Why there is no display in `environment`, or `nil` when a window can be tried.
    package static func problem(environment: [String: String]) -> String? {
        if isSet(environment["SDL_VIDEODRIVER"]) { return nil }
        if isSet(environment["DISPLAY"]) || isSet(environment["WAYLAND_DISPLAY"]) { return nil }
        return "no display: neither DISPLAY nor WAYLAND_DISPLAY is set. " + advice
    }

    /// Why SDL's chosen `driver` shows nothing, or `nil` when it is a real display (or was asked for by name).
    package static func problem(driver: String, environment: [String: String]) -> String? {
        guard invisibleDrivers.contains(driver.lowercased()), !isSet(environment["SDL_VIDEODRIVER"]) else { return nil }
        return "no display: SDL chose its '\(driver)' video driver, which shows nothing. " + advice
    }

    /// What to do instead.
    static let advice =
        "Draw headless with `tiltfx run --headless` (power-gated loop, no window) or to PNG with `tiltfx render`; "
        + "or run it inside a desktop session (or set SDL_VIDEODRIVER to the driver you want)."

    private static func isSet(_ value: String?) -> Bool { !(value ?? "").isEmpty }
}
