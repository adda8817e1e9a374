import CEGL
import CXRandR
import FoundationEssentials
import TiltCore

#if canImport(Glibc)
    import Glibc
#endif

/// The wallpaper on X11: one `_NET_WM_WINDOW_TYPE_DESKTOP` window per RandR monitor, below all others, on every
/// workspace, out of the task bar and pager, drawn with one EGL context (GLES 3) on the X11 platform.
///
/// Monitors are read with `XRRGetMonitors` (the screen itself where the server has none), again on RandR's
/// notifications and at most every two seconds (a monitor set with `xrandr --setmonitor` sends none); each gets,
/// moves or loses its window. Visibility follows the window manager's EWMH properties: the active window
/// (`_NET_ACTIVE_WINDOW`) fullscreen over a monitor makes it `.fullscreen`; any client (`_NET_CLIENT_LIST`)
/// fullscreen or maximized over it, `.covered`; a wallpaper window fully obscured or unmapped, `.notDrawn`. X11 does
/// not pace frames: ``pacesFrames`` is false and every output is always ready.
///
/// Xlib's fatal-error path is turned into ``DesktopErrorKind/lost``: the connection's end is noticed (the exit handler
/// of libX11 1.8 sets a flag instead of exiting) and reported by the next ``dispatch(waitSeconds:)``; protocol errors
/// (a client window that vanished between two requests) are ignored rather than fatal.
public final class X11Desktop: DesktopSurfaces {
    public let backend = "x11"
    public var pacesFrames: Bool { false }

    private struct Monitor {
        var output: DesktopOutput
        var x: Int32
        var y: Int32
        var window: Window
        var surface: EGLSurface
        var obscured = false
        var mapped = false
        var windowState: DesktopOutput.Visibility = .visible
    }

    private let display: OpaquePointer
    private let root: Window
    private let filter: Set<String>?
    private let egl: EGLDisplay
    private let config: EGLConfig
    private let context: EGLContext
    private let visual: UnsafeMutablePointer<Visual>
    private let depth: Int32
    private let colormap: Colormap
    private let randrEvents: Int32
    private let lostFlag: UnsafeMutablePointer<Int32>
    private var monitors: [Monitor] = []
    private var pendingEvents = DesktopEvents()
    private var lastMonitorRead = 0.0
    private var watchedClients: Set<Window> = []
    private let atoms: Atoms

    /// The atoms the wallpaper sets and reads.
    private struct Atoms {
        let type, desktopType, state, below, sticky, skipTaskbar, skipPager, fullscreen, maximizedVert,
            maximizedHorz, desktop, name, utf8, active, clients: Atom

        init(_ display: OpaquePointer) {
            func atom(_ name: String) -> Atom { XInternAtom(display, name, 0) }
            type = atom("_NET_WM_WINDOW_TYPE")
            desktopType = atom("_NET_WM_WINDOW_TYPE_DESKTOP")
            state = atom("_NET_WM_STATE")
            below = atom("_NET_WM_STATE_BELOW")
            sticky = atom("_NET_WM_STATE_STICKY")
            skipTaskbar = atom("_NET_WM_STATE_SKIP_TASKBAR")
            skipPager = atom("_NET_WM_STATE_SKIP_PAGER")
            fullscreen = atom("_NET_WM_STATE_FULLSCREEN")
            maximizedVert = atom("_NET_WM_STATE_MAXIMIZED_VERT")
            maximizedHorz = atom("_NET_WM_STATE_MAXIMIZED_HORZ")
            desktop = atom("_NET_WM_DESKTOP")
            name = atom("_NET_WM_NAME")
            utf8 = atom("UTF8_STRING")
            active = atom("_NET_ACTIVE_WINDOW")
            clients = atom("_NET_CLIENT_LIST")
        }
    }

    /// Connects to the X server and makes a window on every monitor (or on those named in `outputs`).
    /// - Parameters:
    ///   - displayName: the display (`:0`); `nil`: `$DISPLAY`.
    ///   - outputs: the monitors to draw on, by name; `nil`: all.
    /// - Throws: ``DesktopError``: `.noDisplay` when no X server answers, `.unsupported` without RandR, `.gl` when EGL
    ///   has no GLES 3 on the display.
    public init(displayName: String? = nil, outputs: Set<String>? = nil) throws(DesktopError) {
        X11Desktop.installErrorHandlers()
        guard let display = XOpenDisplay(displayName) else {
            let name = displayName ?? ProcessInfo.processInfo.environment["DISPLAY"] ?? ""
            throw DesktopError(
                .noDisplay,
                "cannot open the X display '\(name)'; run it in the X session (DISPLAY=:0), or import the session's "
                    + "DISPLAY into the user manager (`systemctl --user import-environment DISPLAY`)")
        }
        var eventBase: Int32 = 0
        var errorBase: Int32 = 0
        guard XRRQueryExtension(display, &eventBase, &errorBase) != 0 else {
            XCloseDisplay(display)
            throw DesktopError(.unsupported, "the X server has no RandR extension, so its monitors cannot be known")
        }
        lostFlag = .allocate(capacity: 1)
        lostFlag.pointee = 0
        XSetIOErrorExitHandler(
            display,
            { _, data in data?.assumingMemoryBound(to: Int32.self).pointee = 1 },
            UnsafeMutableRawPointer(lostFlag))
        self.display = display
        randrEvents = eventBase
        root = XDefaultRootWindow(display)
        filter = outputs
        atoms = Atoms(display)
        do {
            (egl, config, context) = try Self.makeContext(display)
        } catch {
            XCloseDisplay(display)
            throw error
        }
        var visualID: EGLint = 0
        eglGetConfigAttrib(egl, config, EGL_NATIVE_VISUAL_ID, &visualID)
        var template = XVisualInfo()
        template.visualid = VisualID(visualID)
        var count: Int32 = 0
        guard let info = XGetVisualInfo(display, Int(VisualIDMask), &template, &count), count > 0 else {
            eglDestroyContext(egl, context)
            XCloseDisplay(display)
            throw DesktopError(.gl, "no X visual matches the EGL config (visual id \(visualID))")
        }
        visual = info.pointee.visual
        depth = info.pointee.depth
        XFree(info)
        colormap = XCreateColormap(display, root, visual, AllocNone)
        XRRSelectInput(
            display, root, Int32(RRScreenChangeNotifyMask | RRCrtcChangeNotifyMask | RROutputChangeNotifyMask))
        XSelectInput(display, root, PropertyChangeMask)
        readMonitors()
        updateVisibility()
        XFlush(display)
    }

    deinit {
        for monitor in monitors { destroy(monitor) }
        eglMakeCurrent(egl, nil, nil, nil)
        eglDestroyContext(egl, context)
        if lostFlag.pointee == 0 {
            XFreeColormap(display, colormap)
            XCloseDisplay(display)
        }
        lostFlag.deallocate()
    }

    public var outputs: [DesktopOutput] {
        monitors.map { monitor in
            var output = monitor.output
            output.visibility = monitor.obscured || !monitor.mapped ? .notDrawn : monitor.windowState
            return output
        }
    }

    public func makeCurrent() throws(DesktopError) {
        guard eglMakeCurrent(egl, nil, nil, context) == EGL_TRUE else {
            throw DesktopError(.gl, "eglMakeCurrent with no surface failed with 0x\(String(eglGetError(), radix: 16))")
        }
    }

    public func dispatch(waitSeconds: Double) throws(DesktopError) -> DesktopEvents {
        try checkConnection()
        if XPending(display) == 0 && waitSeconds > 0 {
            var fd = pollfd(fd: XConnectionNumber(display), events: Int16(POLLIN), revents: 0)
            let wait = min(waitSeconds, max(0, lastMonitorRead + 2 - monotonicSeconds()))
            _ = poll(&fd, 1, Int32(max(0, wait) * 1000))
        }
        let before = outputs
        var monitorsChanged = false
        var statesChanged = false
        while lostFlag.pointee == 0 && XPending(display) > 0 {
            var event = XEvent()
            XNextEvent(display, &event)
            switch event.type {
            case randrEvents + RRScreenChangeNotify, randrEvents + RRNotify:
                XRRUpdateConfiguration(&event)
                monitorsChanged = true
            case PropertyNotify:
                let atom = event.xproperty.atom
                if atom == atoms.active || atom == atoms.clients || atom == atoms.state { statesChanged = true }
            case VisibilityNotify:
                let window = event.xvisibility.window
                if let i = monitors.firstIndex(where: { $0.window == window }) {
                    monitors[i].obscured = event.xvisibility.state == VisibilityFullyObscured
                }
            case MapNotify:
                if let i = monitors.firstIndex(where: { $0.window == event.xmap.window }) { monitors[i].mapped = true }
            case UnmapNotify:
                if let i = monitors.firstIndex(where: { $0.window == event.xunmap.window }) {
                    monitors[i].mapped = false
                }
            default: break
            }
        }
        try checkConnection()
        if monitorsChanged || monitorsDue() { readMonitors() }
        if statesChanged || monitorsChanged { updateVisibility() }
        var events = pendingEvents
        pendingEvents = DesktopEvents()
        for output in outputs {
            if let old = before.first(where: { $0.name == output.name }), old.visibility != output.visibility {
                events.visibilityChanged.append(output.name)
            }
        }
        return events
    }

    public func draw(output: String, tag: Double, _ body: (_ width: Int, _ height: Int) throws -> Void) throws {
        try checkConnection()
        guard let monitor = monitors.first(where: { $0.output.name == output }) else { return }
        guard eglMakeCurrent(egl, monitor.surface, monitor.surface, context) == EGL_TRUE else {
            throw DesktopError(
                .gl, "eglMakeCurrent on \(output)'s window failed with 0x\(String(eglGetError(), radix: 16))")
        }
        eglSwapInterval(egl, 0)
        try body(monitor.output.width, monitor.output.height)
        eglSwapBuffers(egl, monitor.surface)
    }

    // MARK: Monitors

    private func monitorsDue() -> Bool { monotonicSeconds() >= lastMonitorRead + 2 }

    /// Re-reads the monitors: windows for new ones, gone ones destroyed, moved or resized ones followed.
    private func readMonitors() {
        lastMonitorRead = monotonicSeconds()
        let found = Self.monitors(display, root: root).filter { filter?.contains($0.name) ?? true }
        for monitor in monitors where !found.contains(where: { $0.name == monitor.output.name }) {
            destroy(monitor)
            pendingEvents.removed.append(monitor.output.name)
        }
        monitors.removeAll { monitor in !found.contains { $0.name == monitor.output.name } }
        for described in found {
            if let i = monitors.firstIndex(where: { $0.output.name == described.name }) {
                let old = monitors[i]
                monitors[i].output.rotation = described.rotation
                monitors[i].output.refreshRate = described.refresh
                guard
                    old.x != described.x || old.y != described.y || old.output.width != described.width
                        || old.output.height != described.height || old.output.rotation != described.rotation
                else { continue }
                monitors[i].x = described.x
                monitors[i].y = described.y
                monitors[i].output.width = described.width
                monitors[i].output.height = described.height
                XMoveResizeWindow(
                    display, old.window, described.x, described.y, UInt32(described.width), UInt32(described.height))
                pendingEvents.resized.append(described.name)
            } else if let monitor = create(described) {
                monitors.append(monitor)
                pendingEvents.added.append(described.name)
            }
        }
        XFlush(display)
    }

    /// A monitor as RandR describes it.
    private struct Described {
        var name: String
        var x: Int32
        var y: Int32
        var width: Int
        var height: Int
        var rotation: ScreenRotation
        var refresh: Double?
    }

    /// The active monitors (`XRRGetMonitors`), or the whole screen when the server lists none.
    private static func monitors(_ display: OpaquePointer, root: Window) -> [Described] {
        var count: Int32 = 0
        let resources = XRRGetScreenResourcesCurrent(display, root)
        defer { if let resources { XRRFreeScreenResources(resources) } }
        var result: [Described] = []
        if let list = XRRGetMonitors(display, root, 1, &count) {
            defer { XRRFreeMonitors(list) }
            for i in 0..<Int(count) {
                let m = list[i]
                var name = "monitor-\(i)"
                if let text = XGetAtomName(display, m.name) {
                    name = String(cString: text)
                    XFree(text)
                }
                var rotation = ScreenRotation.normal
                var refresh: Double?
                if m.noutput > 0, let outputs = m.outputs, let resources {
                    (rotation, refresh) = crtcState(display, resources: resources, output: outputs[0])
                }
                result.append(
                    Described(
                        name: name, x: m.x, y: m.y, width: Int(m.width), height: Int(m.height), rotation: rotation,
                        refresh: refresh))
            }
        }
        if result.isEmpty {
            let screen = XDefaultScreen(display)
            result.append(
                Described(
                    name: "screen", x: 0, y: 0, width: Int(XDisplayWidth(display, screen)),
                    height: Int(XDisplayHeight(display, screen)), rotation: .normal, refresh: nil))
        }
        return result
    }

    /// The rotation and refresh rate of the CRTC that drives `output`.
    private static func crtcState(
        _ display: OpaquePointer, resources: UnsafeMutablePointer<XRRScreenResources>, output: RROutput
    ) -> (ScreenRotation, Double?) {
        guard let info = XRRGetOutputInfo(display, resources, output) else { return (.normal, nil) }
        defer { XRRFreeOutputInfo(info) }
        guard info.pointee.crtc != 0, let crtc = XRRGetCrtcInfo(display, resources, info.pointee.crtc) else {
            return (.normal, nil)
        }
        defer { XRRFreeCrtcInfo(crtc) }
        let rotation = ScreenRotation(randr: Int(crtc.pointee.rotation)) ?? .normal
        var refresh: Double?
        for i in 0..<Int(resources.pointee.nmode) where resources.pointee.modes[i].id == crtc.pointee.mode {
            let mode = resources.pointee.modes[i]
            let dots = Double(mode.hTotal) * Double(mode.vTotal)
            if dots > 0 && mode.dotClock > 0 { refresh = Double(mode.dotClock) / dots }
        }
        return (rotation, refresh)
    }

    /// A desktop window over `described`, with its EGL surface; `nil` (logged by nothing: the caller sees no output)
    /// when the surface cannot be made.
    private func create(_ described: Described) -> Monitor? {
        var attributes = XSetWindowAttributes()
        attributes.colormap = colormap
        attributes.background_pixel = 0
        attributes.border_pixel = 0
        attributes.event_mask = VisibilityChangeMask | StructureNotifyMask | ExposureMask
        let window = XCreateWindow(
            display, root, described.x, described.y, UInt32(described.width), UInt32(described.height), 0, depth,
            UInt32(InputOutput), visual, UInt(CWColormap | CWBackPixel | CWBorderPixel | CWEventMask), &attributes)
        setDesktopProperties(window, name: described.name, x: described.x, y: described.y, size: described)
        var native = window
        guard let surface = eglCreatePlatformWindowSurface(egl, config, &native, nil) else {
            XDestroyWindow(display, window)
            return nil
        }
        XMapWindow(display, window)
        XLowerWindow(display, window)
        let output = DesktopOutput(
            name: described.name, width: described.width, height: described.height, refreshRate: described.refresh,
            rotation: described.rotation)
        return Monitor(output: output, x: described.x, y: described.y, window: window, surface: surface, mapped: true)
    }

    /// The EWMH and ICCCM properties of a desktop window, set before it is mapped.
    private func setDesktopProperties(_ window: Window, name: String, x: Int32, y: Int32, size: Described) {
        func setAtoms(_ property: Atom, _ values: [Atom]) {
            var longs = values.map { CLong(bitPattern: UInt($0)) }
            longs.withUnsafeMutableBytes { bytes in
                _ = XChangeProperty(
                    display, window, property, tilt_XA_ATOM, 32, PropModeReplace,
                    bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(values.count))
            }
        }
        setAtoms(atoms.type, [atoms.desktopType])
        setAtoms(atoms.state, [atoms.below, atoms.sticky, atoms.skipTaskbar, atoms.skipPager])
        var allDesktops = CLong(bitPattern: 0xFFFF_FFFF)
        withUnsafeMutableBytes(of: &allDesktops) { bytes in
            _ = XChangeProperty(
                display, window, atoms.desktop, tilt_XA_CARDINAL, 32, PropModeReplace,
                bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), 1)
        }
        let title = "tiltfx wallpaper (\(name))"
        var utf8 = Array(title.utf8)
        _ = XChangeProperty(display, window, atoms.name, atoms.utf8, 8, PropModeReplace, &utf8, Int32(utf8.count))
        _ = XStoreName(display, window, title)
        "tiltfx-wallpaper".withCString { text in
            let owned = strdup(text)
            var hint = XClassHint(res_name: owned, res_class: owned)
            XSetClassHint(display, window, &hint)
            free(owned)
        }
        if let hints = XAllocWMHints() {
            hints.pointee.flags = InputHint
            hints.pointee.input = 0
            XSetWMHints(display, window, hints)
            XFree(hints)
        }
        if let sizeHints = XAllocSizeHints() {
            sizeHints.pointee.flags = USPosition | USSize | PMinSize | PMaxSize
            sizeHints.pointee.x = x
            sizeHints.pointee.y = y
            sizeHints.pointee.width = Int32(size.width)
            sizeHints.pointee.height = Int32(size.height)
            sizeHints.pointee.min_width = Int32(size.width)
            sizeHints.pointee.min_height = Int32(size.height)
            sizeHints.pointee.max_width = Int32(size.width)
            sizeHints.pointee.max_height = Int32(size.height)
            XSetWMNormalHints(display, window, sizeHints)
            XFree(sizeHints)
        }
    }

    private func destroy(_ monitor: Monitor) {
        eglMakeCurrent(egl, nil, nil, context)
        eglDestroySurface(egl, monitor.surface)
        if lostFlag.pointee == 0 { XDestroyWindow(display, monitor.window) }
    }

    // MARK: Visibility

    /// Reads which windows are fullscreen or maximized over which monitor (EWMH), and watches their state.
    private func updateVisibility() {
        let active = windows(of: atoms.active, on: root).first
        var clients = windows(of: atoms.clients, on: root)
        if let active, !clients.contains(active) { clients.append(active) }
        for client in clients where !watchedClients.contains(client) {
            XSelectInput(display, client, PropertyChangeMask | StructureNotifyMask)
            watchedClients.insert(client)
        }
        watchedClients.formIntersection(clients)
        var covering: [(rect: (Int32, Int32, Int32, Int32), fullscreen: Bool, active: Bool)] = []
        for client in clients {
            let states = windows(of: atoms.state, on: client)
            let fullscreen = states.contains(atoms.fullscreen)
            let maximized = states.contains(atoms.maximizedVert) && states.contains(atoms.maximizedHorz)
            guard fullscreen || maximized, let rect = rectangle(of: client) else { continue }
            covering.append((rect, fullscreen, client == active))
        }
        for i in monitors.indices {
            let center = (
                monitors[i].x + Int32(monitors[i].output.width / 2),
                monitors[i].y + Int32(monitors[i].output.height / 2)
            )
            func over(_ r: (Int32, Int32, Int32, Int32)) -> Bool {
                center.0 >= r.0 && center.0 < r.0 + r.2 && center.1 >= r.1 && center.1 < r.1 + r.3
            }
            let on = covering.filter { over($0.rect) }
            monitors[i].windowState =
                on.contains { $0.fullscreen && $0.active } ? .fullscreen : on.isEmpty ? .visible : .covered
        }
    }

    /// A window or atom list property of `window` (32-bit items), empty when it has none.
    private func windows(of property: Atom, on window: Window) -> [UInt] {
        var type: Atom = 0
        var format: Int32 = 0
        var count: UInt = 0
        var after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        guard
            XGetWindowProperty(
                display, window, property, 0, 4096, 0, Atom(AnyPropertyType), &type, &format, &count, &after, &data)
                == Success, let data, format == 32
        else { return [] }
        defer { XFree(data) }
        // Xlib hands 32-bit items out as C longs.
        return data.withMemoryRebound(to: CLong.self, capacity: Int(count)) { longs in
            (0..<Int(count)).map { UInt(bitPattern: longs[$0]) }
        }
    }

    /// `window`'s rectangle on the root window (x, y, width, height), or `nil` when it is gone.
    private func rectangle(of window: Window) -> (Int32, Int32, Int32, Int32)? {
        var attributes = XWindowAttributes()
        guard XGetWindowAttributes(display, window, &attributes) != 0 else { return nil }
        var x: Int32 = 0
        var y: Int32 = 0
        var child: Window = 0
        XTranslateCoordinates(display, window, root, 0, 0, &x, &y, &child)
        return (x, y, attributes.width, attributes.height)
    }

    // MARK: Errors and EGL

    private func checkConnection() throws(DesktopError) {
        if lostFlag.pointee != 0 {
            throw DesktopError(
                .lost, "the connection to the X server ended (the session closed, or the server stopped)")
        }
    }

    /// Protocol errors are not fatal (a client window may vanish between two requests), and the default I/O error
    /// handler's message is left to the exit handler's flag.
    private static func installErrorHandlers() {
        XSetErrorHandler { _, _ in 0 }
        XSetIOErrorHandler { _ in 0 }
    }

    /// The display's EGL, a window config (RGB8, GLES 3) and a GLES 3.0 context.
    private static func makeContext(
        _ display: OpaquePointer
    ) throws(DesktopError) -> (EGLDisplay, EGLConfig, EGLContext) {
        guard
            let egl = eglGetPlatformDisplay(
                EGLenum(EGL_PLATFORM_X11_KHR), UnsafeMutableRawPointer(display), nil)
        else {
            throw DesktopError(.gl, "EGL has no X11 platform (EGL_KHR_platform_x11)")
        }
        var major: EGLint = 0
        var minor: EGLint = 0
        guard eglInitialize(egl, &major, &minor) == EGL_TRUE, eglBindAPI(EGLenum(EGL_OPENGL_ES_API)) == EGL_TRUE else {
            throw DesktopError(.gl, "eglInitialize on the X display failed with 0x\(String(eglGetError(), radix: 16))")
        }
        let wanted: [EGLint] = [
            EGL_SURFACE_TYPE, EGL_WINDOW_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT, EGL_RED_SIZE, 8,
            EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_NONE,
        ]
        var config: EGLConfig?
        var count: EGLint = 0
        guard eglChooseConfig(egl, wanted, &config, 1, &count) == EGL_TRUE, count > 0, let config else {
            throw DesktopError(.gl, "EGL offers no GLES 3 window config with 8-bit colour on the X display")
        }
        let attributes: [EGLint] = [EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 0, EGL_NONE]
        guard let context = eglCreateContext(egl, config, nil, attributes) else {
            throw DesktopError(.gl, "eglCreateContext(ES 3.0) failed with 0x\(String(eglGetError(), radix: 16))")
        }
        return (egl, config, context)
    }
}
