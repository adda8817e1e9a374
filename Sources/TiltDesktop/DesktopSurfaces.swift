import TiltCore

/// The wallpaper's surfaces on a desktop: one per output (monitor), below every window, all drawn with one GL
/// context. A display server is one implementation: ``WaylandDesktop`` (layer-shell background surfaces) or
/// ``X11Desktop`` (`_NET_WM_WINDOW_TYPE_DESKTOP` windows, one per RandR monitor).
///
/// The wallpaper's frame sink drives it: ``dispatch(waitSeconds:)`` takes the display's events (outputs coming and
/// going, resized, covered by a fullscreen window, frame callbacks), ``draw(output:tag:_:)`` draws one output's
/// frame and shows it. Used on the thread that made it: its GL context is current there.
package protocol DesktopSurfaces: AnyObject {
    /// What draws the desktop, for the log: `wayland (layer-shell)`, `x11`.
    var backend: String { get }
    /// The outputs that have a surface now, in the order the display server announced them.
    var outputs: [DesktopOutput] { get }
    /// Whether the display server paces frames (Wayland's frame callbacks: draw when an output is ``DesktopOutput/ready``);
    /// otherwise (X11) the caller paces them at a rate of its own.
    var pacesFrames: Bool { get }
    /// Makes the one GL context current with no surface (or on any surface), so renderers can be made before an
    /// output exists.
    func makeCurrent() throws(DesktopError)
    /// Reads and handles the display server's events, waiting up to `waitSeconds` for the first (0: only what is
    /// queued).
    /// - Throws: ``DesktopError`` with kind `.lost` when the connection to the display server ended.
    func dispatch(waitSeconds: Double) throws(DesktopError) -> DesktopEvents
    /// Makes the GL context current on `output`'s surface, calls `body` with the surface's size in pixels to draw
    /// into framebuffer 0, and shows the result. On Wayland the commit asks for a frame callback (the output is not
    /// ``DesktopOutput/ready`` until it comes) and, where `wp_presentation` is offered, presentation feedback that
    /// comes back in ``DesktopEvents/presented`` with `tag`.
    /// - Parameter tag: the drawn frame's `mono` time (seconds on the monotonic clock), returned with its
    ///   presentation.
    func draw(output: String, tag: Double, _ body: (_ width: Int, _ height: Int) throws -> Void) throws
    /// As ``draw(output:tag:_:)``, at `scale` (below 1) of the surface's pixels each way, where the display server
    /// stretches a smaller buffer to the output (Wayland's `wp_viewporter`): `body` gets the smaller size.
    /// - Returns: `false`, having drawn nothing, where it cannot (X11): the caller then draws at full size and
    ///   stretches its frame itself.
    func drawScaled(output: String, tag: Double, scale: Double, _ body: (_ width: Int, _ height: Int) throws -> Void)
        throws -> Bool
}

extension DesktopSurfaces {
    package func drawScaled(
        output: String, tag: Double, scale: Double, _ body: (_ width: Int, _ height: Int) throws -> Void
    ) throws -> Bool {
        false
    }
}

/// One output (monitor) with the wallpaper's surface on it.
package struct DesktopOutput: Sendable, Hashable {
    /// Whether the wallpaper on an output can be seen.
    package enum Visibility: Sendable, Hashable {
        /// Nothing says otherwise.
        case visible
        /// The active window on this output is fullscreen.
        case fullscreen
        /// A window on this output is fullscreen or maximized, active or not (what `--pause-when covered` pauses on).
        case covered
        /// The compositor stopped asking for frames (its frame callback did not come for a while): hidden or off.
        /// On X11: the wallpaper's window is unmapped or fully obscured (`VisibilityFullyObscured`).
        case notDrawn
        /// The desktop shell says nobody can see it (`tiltfx wallpaper --gnome`: the screen is locked or blank, or
        /// the GNOME Shell extension said `hidden`).
        case hidden
    }

    /// The output's name as the display server calls it (`eDP-1`, `HDMI-A-1`, `HEADLESS-1`; X11: the RandR
    /// monitor's or output's name).
    package var name: String
    /// The surface's width in pixels (its logical size times the output's scale).
    package var width: Int
    /// The surface's height in pixels.
    package var height: Int
    /// The output's refresh rate, Hz, where the display server says it.
    package var refreshRate: Double?
    /// Whether the wallpaper there can be seen.
    package var visibility: Visibility
    /// Whether a frame can be drawn now (Wayland: the last frame's callback came; X11: always).
    package var ready: Bool
    /// The output's rotation (RandR's, or the `wl_output` transform).
    package var rotation: ScreenRotation

    /// An output.
    package init(
        name: String, width: Int, height: Int, refreshRate: Double? = nil, visibility: Visibility = .visible,
        ready: Bool = true, rotation: ScreenRotation = .normal
    ) {
        self.name = name
        self.width = width
        self.height = height
        self.refreshRate = refreshRate
        self.visibility = visibility
        self.ready = ready
        self.rotation = rotation
    }
}

/// What ``DesktopSurfaces/dispatch(waitSeconds:)`` saw.
package struct DesktopEvents: Sendable, Hashable {
    /// Outputs that got a surface (a monitor plugged in or enabled, and every output on the first dispatch).
    package var added: [String] = []
    /// Outputs whose surface is gone (unplugged, disabled).
    package var removed: [String] = []
    /// Outputs whose size, scale or rotation changed: their next frame must be drawn.
    package var resized: [String] = []
    /// Outputs whose ``DesktopOutput/visibility`` changed.
    package var visibilityChanged: [String] = []
    /// Outputs that became ``DesktopOutput/ready`` (a frame callback came).
    package var ready: [String] = []
    /// Frames the compositor reports shown (`wp_presentation` feedback).
    package var presented: [Presentation] = []
    /// The desktop shell that started the wallpaper closed its control channel (``ShellChannel``): it is gone or
    /// wants the wallpaper to stop.
    package var shellLeft = false

    /// No events.
    package init() {}

    /// Whether nothing happened.
    package var isEmpty: Bool { self == DesktopEvents() }

    /// A frame shown on an output.
    package struct Presentation: Sendable, Hashable {
        /// The output.
        package var output: String
        /// The `tag` it was drawn with (its `mono` time).
        package var tag: Double
        /// When it was shown, seconds on the monotonic clock (`CLOCK_MONOTONIC`, as `mono`).
        package var shown: Double

        /// A presentation.
        package init(output: String, tag: Double, shown: Double) {
            self.output = output
            self.tag = tag
            self.shown = shown
        }
    }
}

/// What can go wrong with the desktop's surfaces.
package typealias DesktopError = TiltError<DesktopErrorKind>

/// The kinds of ``DesktopError``.
package enum DesktopErrorKind: Sendable, Hashable {
    /// No display server to connect to (no `WAYLAND_DISPLAY`/`DISPLAY`, or the connection was refused).
    case noDisplay
    /// The display server lacks what the wallpaper needs (GNOME's Mutter has no layer-shell; an X server without
    /// RandR).
    case unsupported
    /// EGL or GL could not be set up on the display.
    case gl
    /// The connection to the display server ended.
    case lost
}
