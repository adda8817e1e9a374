import CEGL
import CXRandR
import FoundationEssentials
import Glibc
import TiltCore
import TiltEGL

/// The wallpaper on an X server: one `_NET_WM_WINDOW_TYPE_DESKTOP` window per RandR monitor (the CRTCs, or the
/// whole screen, where the server lists no monitors), below every other window, on every workspace, out of the
/// taskbar and pager, all drawn with one OpenGL ES 3.0 context through EGL's X11 platform.
///
/// It follows RandR: a monitor added, removed, moved, resized or rotated comes back from
/// ``dispatch(waitSeconds:)`` and its window follows. Visibility comes from the EWMH properties a window manager
/// keeps on the root (`_NET_ACTIVE_WINDOW`, `_NET_CLIENT_LIST`) and on its clients (`_NET_WM_STATE`), and from the
/// server's `VisibilityNotify` on the wallpaper's own windows.
///
/// A lost connection (the server ended) is a ``DesktopError`` of kind `.lost`, never Xlib's exit: the object
/// installs an I/O error exit handler on its display, and process-wide an I/O error handler and a protocol error
/// handler that return (an `XSetErrorHandler` that ignores errors, so a client window destroyed while it is read
/// is not fatal). After `.lost` the object must only be released.
package final class X11Desktop: DesktopSurfaces {
    package let backend = "x11"
    /// X11 does not pace frames: every output is always ready, and the loop keeps its own rate.
    package var pacesFrames: Bool { false }
    package internal(set) var outputs: [DesktopOutput] = []

    let display: OpaquePointer
    let root: Window
    let screen: Int32
    let atoms: Atoms
    private let filter: Set<String>?
    /// The desktop shell's control channel (`tiltfx wallpaper --gnome` on GNOME on Xorg), where it has one.
    let shell: ShellChannel?
    private let randrEventBase: Int32
    /// Whether the server has RandR 1.5's monitors (else the wallpaper covers CRTCs).
    var hasMonitors: Bool
    private let lostFlag: Unmanaged<LostFlag>

    private let eglDisplay: EGLDisplay
    private let eglConfig: EGLConfig
    private let eglContext: EGLContext
    private let visual: UnsafeMutablePointer<Visual>
    private let depth: Int32
    private let colormap: Colormap

    /// The window and surface of each output, by name.
    var surfaces: [String: Surface] = [:]
    /// Outputs made since the last dispatch (all of them before the first).
    private var pendingAdded: [String] = []
    private var monitorsChanged = false
    var visibilityStale = false
    /// Client windows whose property changes are selected.
    var watched: Set<Window> = []

    /// One output's window and where it is.
    struct Surface {
        var window: Window
        var egl: EGLSurface
        var geometry: Monitor
        var mapped = false
        var obscured = false
        var swapIntervalSet = false
    }

    /// Connects to the X server, makes the GL context and one window per monitor (mapped, not yet drawn).
    /// - Parameters:
    ///   - outputs: the names of the monitors to draw on (`nil`: all); others get no window, now or when they come.
    ///   - displayName: the X display (`:1`); `nil` reads `DISPLAY`.
    ///   - shell: what covers each monitor, from the desktop shell that started the wallpaper (GNOME Shell's
    ///     extension); it overrides what the window manager's properties say, except `visible`.
    /// - Throws: ``DesktopError``: `.noDisplay` when there is no X server to connect to, `.unsupported` when it has
    ///   no RandR 1.3, `.gl` when EGL cannot make an ES 3.0 context or window surfaces on it.
    package init(outputs: Set<String>? = nil, displayName: String? = nil, shell: ShellChannel? = nil)
        throws(DesktopError)
    {
        self.shell = shell
        installProcessErrorHandlers
        let name = displayName ?? ProcessInfo.processInfo.environment["DISPLAY"]
        guard let name, !name.isEmpty else {
            throw DesktopError(
                .noDisplay, "no X display: DISPLAY is not set; run inside an X session or set DISPLAY (e.g. DISPLAY=:0)"
            )
        }
        guard let display = XOpenDisplay(name) else {
            throw DesktopError(
                .noDisplay,
                "cannot open X display \(name): is the X server running, and may this user connect (xhost, XAUTHORITY)?"
            )
        }
        var failed = true
        defer { if failed { XCloseDisplay(display) } }

        var eventBase: Int32 = 0
        var errorBase: Int32 = 0
        var major: Int32 = 0
        var minor: Int32 = 0
        guard XRRQueryExtension(display, &eventBase, &errorBase) != 0,
            XRRQueryVersion(display, &major, &minor) != 0, major > 1 || (major == 1 && minor >= 3)
        else {
            throw DesktopError(
                .unsupported, "the X server on \(name) has no RandR 1.3, which the wallpaper needs to find its monitors"
            )
        }
        self.hasMonitors = major > 1 || minor >= 5
        self.display = display
        self.screen = XDefaultScreen(display)
        self.root = XRootWindow(display, screen)
        self.atoms = Atoms(display)
        self.filter = outputs
        self.randrEventBase = eventBase

        let gl = try Self.makeGL(display, screen: screen, name: name)
        (eglDisplay, eglConfig, eglContext) = (gl.display, gl.config, gl.context)
        var template = XVisualInfo()
        template.visualid = VisualID(gl.visualID)
        var count: Int32 = 0
        guard gl.visualID != 0, let info = XGetVisualInfo(display, Int(VisualIDMask), &template, &count), count > 0,
            let visual = info.pointee.visual
        else {
            Self.endGL(gl.display, gl.context)
            throw DesktopError(
                .gl, "EGL's config names X visual 0x\(String(gl.visualID, radix: 16)), which the server does not have")
        }
        self.visual = visual
        self.depth = info.pointee.depth
        XFree(info)
        self.colormap = XCreateColormap(display, root, visual, AllocNone)

        lostFlag = Unmanaged.passRetained(LostFlag())
        XSetIOErrorExitHandler(
            display,
            { _, data in
                guard let data else { return }
                Unmanaged<LostFlag>.fromOpaque(data).takeUnretainedValue().lost = true
            }, lostFlag.toOpaque())

        XRRSelectInput(
            display, root, Int32(RRScreenChangeNotifyMask | RRCrtcChangeNotifyMask | RROutputChangeNotifyMask))
        // RandR 1.5 tells of a monitor set or deleted (xrandr --setmonitor) only with a ConfigureNotify on the root.
        XSelectInput(display, root, PropertyChangeMask | StructureNotifyMask)
        failed = false

        do {
            try reconcile(added: &pendingAdded, removed: nil, resized: nil)
        } catch {
            releaseEverything()
            throw error
        }
        updateVisibility(changed: nil as UnsafeMutablePointer<[String]>?)
        XSync(display, 0)  // the windows exist when the object does
    }

    deinit { releaseEverything() }

    private var lost: Bool { lostFlag.takeUnretainedValue().lost }

    private var released = false

    private func releaseEverything() {
        guard !released else { return }
        released = true
        // After an I/O error the connection is broken: Xlib and Mesa must not touch it again, so the little that
        // was allocated stays allocated.
        guard !lost else { return }
        eglMakeCurrent(eglDisplay, nil, nil, nil)
        for surface in surfaces.values {
            eglDestroySurface(eglDisplay, surface.egl)
            XDestroyWindow(display, surface.window)
        }
        surfaces = [:]
        Self.endGL(eglDisplay, eglContext)
        XFreeColormap(display, colormap)
        XCloseDisplay(display)
        lostFlag.release()
    }

    package func makeCurrent() throws(DesktopError) {
        try checkConnection()
        if eglMakeCurrent(eglDisplay, nil, nil, eglContext) == EGL_TRUE { return }
        // Without EGL_KHR_surfaceless_context: any window's surface will do.
        if let surface = surfaces.values.first,
            eglMakeCurrent(eglDisplay, surface.egl, surface.egl, eglContext) == EGL_TRUE
        {
            return
        }
        throw DesktopError(
            .gl, "eglMakeCurrent failed with 0x\(String(eglGetError(), radix: 16)) (no surfaceless context, no window)")
    }

    package func dispatch(waitSeconds: Double) throws(DesktopError) -> DesktopEvents {
        try checkConnection()
        var events = DesktopEvents()
        events.added = pendingAdded
        pendingAdded = []
        if XPending(display) == 0, waitSeconds > 0, events.isEmpty {
            var fds = [pollfd(fd: XConnectionNumber(display), events: Int16(POLLIN), revents: 0)]
            if let shell, !shell.ended { fds.append(pollfd(fd: shell.fd, events: Int16(POLLIN), revents: 0)) }
            let milliseconds = Int32(min((waitSeconds * 1000).rounded(.up), Double(Int32.max)))
            _ = poll(&fds, nfds_t(fds.count), milliseconds)  // EINTR or a timeout: the caller's loop comes back
        }
        if let shell, shell.read() {
            events.shellLeft = shell.ended
            visibilityStale = true
        }
        while !lost, XPending(display) > 0 {
            var event = XEvent()
            XNextEvent(display, &event)
            handle(&event)
        }
        try checkConnection()
        if monitorsChanged {
            monitorsChanged = false
            try reconcile(added: &events.added, removed: &events.removed, resized: &events.resized)
            visibilityStale = true
            XSync(display, 0)  // windows made, moved or gone before the outputs say so
        }
        if visibilityStale {
            visibilityStale = false
            updateVisibility(changed: &events.visibilityChanged)
        }
        XFlush(display)
        try checkConnection()
        return events
    }

    package func draw(output: String, tag: Double, _ body: (_ width: Int, _ height: Int) throws -> Void) throws {
        try checkConnection()
        guard var surface = surfaces[output] else {
            throw DesktopError(.gl, "no wallpaper window on output \(output)")
        }
        guard eglMakeCurrent(eglDisplay, surface.egl, surface.egl, eglContext) == EGL_TRUE else {
            throw DesktopError(
                .gl, "eglMakeCurrent on \(output)'s window failed with 0x\(String(eglGetError(), radix: 16))")
        }
        if !surface.swapIntervalSet {
            eglSwapInterval(eglDisplay, 0)  // the frame loop paces itself
            surface.swapIntervalSet = true
            surfaces[output] = surface
        }
        try body(surface.geometry.width, surface.geometry.height)
        guard eglSwapBuffers(eglDisplay, surface.egl) == EGL_TRUE else {
            try checkConnection()
            throw DesktopError(
                .gl, "eglSwapBuffers on \(output)'s window failed with 0x\(String(eglGetError(), radix: 16))")
        }
        try checkConnection()
    }

    private func checkConnection() throws(DesktopError) {
        if lost { throw DesktopError(.lost, "the connection to the X server ended") }
    }

    // MARK: Events

    private func handle(_ event: inout XEvent) {
        switch event.type {
        case randrEventBase + RRScreenChangeNotify:
            XRRUpdateConfiguration(&event)
            monitorsChanged = true
        case randrEventBase + RRNotify:
            monitorsChanged = true
        case PropertyNotify:
            let property = event.xproperty
            if property.window == root {
                if property.atom == atoms.activeWindow || property.atom == atoms.clientList {
                    visibilityStale = true
                }
            } else if property.atom == atoms.wmState {
                visibilityStale = true
            }
        case VisibilityNotify:
            let visibility = event.xvisibility
            if let name = outputName(of: visibility.window) {
                surfaces[name]?.obscured = visibility.state == VisibilityFullyObscured
                visibilityStale = true
            }
        case MapNotify:
            if let name = outputName(of: event.xmap.window) {
                surfaces[name]?.mapped = true
                visibilityStale = true
            }
        case UnmapNotify:
            if let name = outputName(of: event.xunmap.window) {
                surfaces[name]?.mapped = false
                visibilityStale = true
            }
        case ConfigureNotify where event.xconfigure.window == root:
            monitorsChanged = true
        case ConfigureNotify where watched.contains(event.xconfigure.window):
            visibilityStale = true  // a client moved or resized: which monitor it covers may have changed
        case DestroyNotify:
            if watched.remove(event.xdestroywindow.window) != nil { visibilityStale = true }
        default:
            break
        }
    }

    func outputName(of window: Window) -> String? {
        surfaces.first { $0.value.window == window }?.key
    }

    // MARK: Windows

    /// Reads the monitors and makes, moves or destroys windows to match; appends what changed.
    private func reconcile(
        added: inout [String], removed: UnsafeMutablePointer<[String]>?, resized: UnsafeMutablePointer<[String]>?
    ) throws(DesktopError) {
        let monitors = readMonitors().filter { filter?.contains($0.name) ?? true }
        let names = Set(monitors.map(\.name))
        for (name, surface) in surfaces where !names.contains(name) {
            destroy(surface)
            surfaces[name] = nil
            removed?.pointee.append(name)
        }
        for monitor in monitors {
            if var surface = surfaces[monitor.name] {
                let old = surface.geometry
                guard old != monitor else { continue }
                surface.geometry = monitor
                surfaces[monitor.name] = surface
                if old.x != monitor.x || old.y != monitor.y || old.width != monitor.width
                    || old.height != monitor.height
                {
                    setSizeHints(surface.window, monitor)
                    XMoveResizeWindow(
                        display, surface.window, Int32(monitor.x), Int32(monitor.y), UInt32(monitor.width),
                        UInt32(monitor.height))
                }
                if old.x != monitor.x || old.y != monitor.y || old.width != monitor.width
                    || old.height != monitor.height || old.rotation != monitor.rotation
                {
                    resized?.pointee.append(monitor.name)
                }
            } else {
                surfaces[monitor.name] = try makeSurface(monitor)
                added.append(monitor.name)
            }
        }
        outputs = monitors.map { monitor in
            let previous = outputs.first { $0.name == monitor.name }
            return DesktopOutput(
                name: monitor.name, width: monitor.width, height: monitor.height, refreshRate: monitor.refreshRate,
                visibility: previous?.visibility ?? .visible, ready: true, rotation: monitor.rotation)
        }
    }

    private func reconcile(
        added: inout [String], removed: inout [String], resized: inout [String]
    ) throws(DesktopError) {
        try withUnsafeMutablePointer(to: &removed) { (removed) throws(DesktopError) in
            try withUnsafeMutablePointer(to: &resized) { (resized) throws(DesktopError) in
                try reconcile(added: &added, removed: removed, resized: resized)
            }
        }
    }

    private func makeSurface(_ monitor: Monitor) throws(DesktopError) -> Surface {
        var attributes = XSetWindowAttributes()
        attributes.colormap = colormap
        attributes.border_pixel = 0
        attributes.background_pixel = 0
        attributes.event_mask = StructureNotifyMask | VisibilityChangeMask | PropertyChangeMask | ExposureMask
        let window = XCreateWindow(
            display, root, Int32(monitor.x), Int32(monitor.y), UInt32(monitor.width), UInt32(monitor.height), 0,
            depth, UInt32(InputOutput), visual, UInt(CWColormap | CWBorderPixel | CWBackPixel | CWEventMask),
            &attributes)
        describe(window, monitor: monitor)
        XMapWindow(display, window)
        XLowerWindow(display, window)
        var native = window
        guard let egl = eglCreatePlatformWindowSurface(eglDisplay, eglConfig, &native, nil) else {
            let error = eglGetError()
            XDestroyWindow(display, window)
            throw DesktopError(
                .gl, "eglCreatePlatformWindowSurface for \(monitor.name) failed with 0x\(String(error, radix: 16))")
        }
        // Mapped as far as the wallpaper knows: an UnmapNotify says otherwise (a window manager's MapNotify may
        // come later, and no picture waits on it).
        return Surface(window: window, egl: egl, geometry: monitor, mapped: true)
    }

    /// Sets what a window manager reads of a desktop window, before it is mapped.
    private func describe(_ window: Window, monitor: Monitor) {
        setAtoms(window, atoms.windowType, [atoms.typeDesktop])
        setAtoms(window, atoms.wmState, [atoms.stateBelow, atoms.stateSticky, atoms.skipTaskbar, atoms.skipPager])
        setLongs(window, atoms.wmDesktop, type: XAtom.cardinal, [0xFFFF_FFFF])
        // WM_HINTS: flags InputHint, input False (the wallpaper takes no keyboard focus).
        setLongs(window, XAtom.wmHints, type: XAtom.wmHints, [Int(InputHint), 0, 0, 0, 0, 0, 0, 0, 0])
        setSizeHints(window, monitor)
        setBytes(window, XAtom.wmClass, type: XAtom.string, Array("tiltfx-wallpaper\0tiltfx-wallpaper\0".utf8))
        let title = Array(WaylandDesktop.windowTitle(output: monitor.name).utf8)
        setBytes(window, XAtom.wmName, type: XAtom.string, title)
        setBytes(window, atoms.netWMName, type: atoms.utf8String, title)
        setLongs(window, atoms.wmPID, type: XAtom.cardinal, [Int(getpid())])
    }

    /// WM_NORMAL_HINTS (18 items): the position and size are the program's (USPosition, USSize), and fixed.
    private func setSizeHints(_ window: Window, _ monitor: Monitor) {
        let (w, h) = (monitor.width, monitor.height)
        setLongs(
            window, XAtom.wmNormalHints, type: XAtom.wmSizeHints,
            [Int(USPosition | USSize | PMinSize | PMaxSize), monitor.x, monitor.y, w, h, w, h, w, h]
                + [Int](repeating: 0, count: 9))
    }

    private func destroy(_ surface: Surface) {
        if eglGetCurrentSurface(EGLint(EGL_DRAW)) == surface.egl {
            if eglMakeCurrent(eglDisplay, nil, nil, eglContext) != EGL_TRUE {
                eglMakeCurrent(eglDisplay, nil, nil, nil)
            }
        }
        eglDestroySurface(eglDisplay, surface.egl)
        XDestroyWindow(display, surface.window)
        watched.remove(surface.window)
    }

    private func setAtoms(_ window: Window, _ property: Atom, _ values: [Atom]) {
        setLongs(window, property, type: XAtom.atom, values.map { Int(bitPattern: $0) })
    }

    /// A format-32 property: Xlib takes its items as C `long`s.
    private func setLongs(_ window: Window, _ property: Atom, type: Atom, _ values: [Int]) {
        values.withUnsafeBytes { raw in
            _ = XChangeProperty(
                display, window, property, type, 32, PropModeReplace, raw.bindMemory(to: UInt8.self).baseAddress,
                Int32(values.count))
        }
    }

    private func setBytes(_ window: Window, _ property: Atom, type: Atom, _ values: [UInt8]) {
        XChangeProperty(display, window, property, type, 8, PropModeReplace, values, Int32(values.count))
    }

    // MARK: GL

    private struct GL {
        var display: EGLDisplay
        var config: EGLConfig
        var context: EGLContext
        var visualID: EGLint
    }

    private static func makeGL(_ display: OpaquePointer, screen: Int32, name: String) throws(DesktopError) -> GL {
        let platformAttributes: [EGLAttrib] = [
            EGLAttrib(EGL_PLATFORM_X11_SCREEN_KHR), EGLAttrib(screen), EGLAttrib(EGL_NONE),
        ]
        let place = "on X display \(name)"
        let egl: EGLDisplay
        do {
            egl = try EGLSetup.display(
                platform: EGLenum(EGL_PLATFORM_X11_KHR), native: UnsafeMutableRawPointer(display),
                attributes: platformAttributes, extensionName: "EGL_KHR_platform_x11", place: place)
        } catch {
            throw DesktopError(.gl, error.message)
        }
        let configs = EGLSetup.configs(egl, surfaceType: EGL_WINDOW_BIT, alphaSize: nil, limit: 64)
        guard !configs.isEmpty else {
            eglTerminate(egl)
            throw DesktopError(.gl, "EGL \(place) has no RGB8 window config for OpenGL ES 3")
        }
        // The first config with a native visual (EGL sorts the best first); prefer one without alpha, as the
        // root's visuals are.
        var chosen: (EGLConfig, EGLint)?
        for config in configs {
            var visual: EGLint = 0
            var alpha: EGLint = 0
            eglGetConfigAttrib(egl, config, EGL_NATIVE_VISUAL_ID, &visual)
            eglGetConfigAttrib(egl, config, EGL_ALPHA_SIZE, &alpha)
            guard visual != 0 else { continue }
            if chosen == nil || alpha == 0 {
                chosen = (config, visual)
                if alpha == 0 { break }
            }
        }
        guard let (config, visualID) = chosen else {
            eglTerminate(egl)
            throw DesktopError(.gl, "no EGL config on X display \(name) has a native visual")
        }
        let context: EGLContext
        do {
            context = try EGLSetup.context(egl, config: config, place: place)
        } catch {
            eglTerminate(egl)
            throw DesktopError(.gl, error.message)
        }
        return GL(display: egl, config: config, context: context, visualID: visualID)
    }

    private static func endGL(_ display: EGLDisplay, _ context: EGLContext) {
        eglMakeCurrent(display, nil, nil, nil)
        eglDestroyContext(display, context)
        eglTerminate(display)
    }
}

/// Whether a display's connection broke: set by its I/O error exit handler.
final class LostFlag {
    var lost = false
}

/// Xlib's I/O error handler (process-wide) returns instead of exiting, so the per-display exit handler runs and
/// returns too; protocol errors (a client window gone while it is read: BadWindow) are ignored.
private let installProcessErrorHandlers: Void = {
    XSetIOErrorHandler { _ in 0 }
    XSetErrorHandler { _, _ in 0 }
}()
