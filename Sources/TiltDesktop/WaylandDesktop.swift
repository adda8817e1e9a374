import CEGL
import CWayland
import Glibc
import TiltCore
import TiltEGL

/// The wallpaper on a Wayland compositor: a `zwlr_layer_shell_v1` background surface on every output (anchored to
/// all four edges, exclusive zone -1, opaque, no keyboard), drawn through EGL with one OpenGL ES 3.0 context.
///
/// Frames are paced by the compositor's frame callbacks, which this class asks for itself: EGL's swap interval is 0
/// (with 1, Mesa's `eglSwapBuffers` waits for a frame callback, forever on an output the compositor stopped drawing).
/// An output is ``DesktopOutput/ready`` again when the callback of its last frame came; when it has not come
/// `notDrawnAfter` seconds after a draw, the output is ``DesktopOutput/Visibility-swift.enum/notDrawn``.
///
/// Where the compositor offers them it also uses `zwlr_foreign_toplevel_manager_v1` (which outputs are covered by a
/// fullscreen or maximized window), `wp_presentation` (when each frame was shown), and `wp_fractional_scale_v1` with
/// `wp_viewporter` (surfaces sized in the output's pixels at a fractional scale; `wl_output.scale` otherwise).
/// Outputs are named by `wl_output.name` (version 4), else `zxdg_output_v1.name` (GNOME's Mutter 43 offers
/// `wl_output` version 3), else `output-N`.
///
/// With ``Role-swift.enum/shellWindows`` (`tiltfx wallpaper --gnome`) it makes plain `xdg_toplevel` windows instead,
/// one per output, sized to it and titled `tiltfx-wallpaper NAME`, for a desktop shell that puts them behind its
/// desktop itself (GNOME Shell's extension, since Mutter has no layer-shell), and which says through a
/// ``ShellChannel`` what covers each output.
package final class WaylandDesktop: DesktopSurfaces {
    /// What the wallpaper's surfaces are.
    package enum Role: Sendable, Hashable {
        /// `zwlr_layer_shell_v1` background surfaces, below every window (sway, Hyprland, KDE Plasma, …).
        case layerShell
        /// Ordinary `xdg_toplevel` windows that a desktop shell shows as its background: one per output, its size,
        /// not resizable, titled ``WaylandDesktop/windowTitle(output:)``.
        case shellWindows
    }

    /// The title of `output`'s window in ``Role-swift.enum/shellWindows``: how the shell finds it.
    package static func windowTitle(output: String) -> String { "tiltfx-wallpaper \(output)" }
    /// The windows' application id.
    package static let appID = "tiltfx-wallpaper"

    package var backend: String {
        role == .layerShell ? "wayland (layer-shell)" : "wayland (windows for the desktop shell)"
    }
    let role: Role
    /// The shell's control channel, where it has one.
    let shell: ShellChannel?
    /// The compositor paces frames: an output is ready when its frame callback comes.
    package var pacesFrames: Bool { true }

    let display: OpaquePointer
    private let registry: OpaquePointer
    private let filter: Set<String>?
    let notDrawnAfter: Double

    var compositor: OpaquePointer?
    var compositorVersion: UInt32 = 0
    var layerShell: OpaquePointer?
    var wmBase: OpaquePointer?
    var xdgOutputManager: OpaquePointer?
    var presentation: OpaquePointer?
    var presentationClock = CLOCK_MONOTONIC
    var toplevelManager: OpaquePointer?
    var viewporter: OpaquePointer?
    var fractionalScaleManager: OpaquePointer?

    /// Every `wl_output` global, in the order the compositor announced them.
    var heads: [WaylandHead] = []
    var toplevels: [WaylandToplevel] = []
    /// Events seen since the last ``dispatch(waitSeconds:)`` returned.
    var pending = DesktopEvents()

    private var egl: EGLDisplay?
    private var config: EGLConfig?
    private var context: EGLContext?

    /// Connects to the compositor, makes the GL context and a surface on every output that passes `outputs`.
    ///
    /// The outputs are in ``outputs`` when this returns (sized, not drawn yet) and in ``DesktopEvents/added`` of the
    /// first ``dispatch(waitSeconds:)``.
    /// - Parameters:
    ///   - displayName: the compositor's socket: a name in `XDG_RUNTIME_DIR` (`wayland-1`) or an absolute path;
    ///     `nil`: `WAYLAND_DISPLAY`.
    ///   - outputs: the names of the outputs to draw on (`--output`); `nil`: all.
    ///   - notDrawnAfter: seconds after a draw without its frame callback until the output is `.notDrawn`.
    /// - Throws: ``DesktopError`` with kind `.noDisplay` (no compositor to connect to), `.unsupported` (no
    ///   wlr-layer-shell, e.g. GNOME's Mutter), `.gl` (no EGL on Wayland or no GLES 3.0) or `.lost`.
    ///   - role: layer-shell surfaces, or windows for a desktop shell.
    ///   - shell: what covers each output, from the shell (with ``Role-swift.enum/shellWindows``).
    package init(
        displayName: String? = nil, outputs: Set<String>? = nil, notDrawnAfter: Double = 1.0,
        role: Role = .layerShell, shell: ShellChannel? = nil
    ) throws(DesktopError) {
        let name = displayName ?? getenv("WAYLAND_DISPLAY").map { String(cString: $0) }
        guard let name, !name.isEmpty else {
            throw DesktopError(
                .noDisplay,
                "WAYLAND_DISPLAY is not set, so there is no Wayland compositor to draw the wallpaper on; run it in a "
                    + "Wayland session (sway, Hyprland, KDE Plasma, …) or set WAYLAND_DISPLAY to the compositor's "
                    + "socket")
        }
        guard let display = wl_display_connect(name) else {
            let why = String(cString: strerror(errno))
            throw DesktopError(
                .noDisplay,
                "cannot connect to the Wayland compositor at \(name) (\(why)); is it running, and are "
                    + "WAYLAND_DISPLAY and XDG_RUNTIME_DIR those of its session?")
        }
        guard let registry = wl_display_get_registry(display) else {
            wl_display_disconnect(display)
            throw DesktopError(.lost, "the Wayland compositor at \(name) gave no registry")
        }
        self.display = display
        self.registry = registry
        self.filter = outputs
        self.notDrawnAfter = notDrawnAfter
        self.role = role
        self.shell = shell
        // Placeholders until EGL is up; every stored property needs a value before `self` goes to a listener.
        self.egl = nil
        self.config = nil
        self.context = nil
        // Every stored property has its value: from here on, a throw runs deinit, which undoes what was made.
        wl_registry_add_listener(registry, WaylandListeners.registry, Unmanaged.passUnretained(self).toOpaque())
        try roundtrip()  // the globals
        guard compositor != nil else {
            throw DesktopError(.unsupported, "the Wayland compositor at \(name) offers no wl_compositor")
        }
        if role == .shellWindows && wmBase == nil {
            throw DesktopError(.unsupported, "the Wayland compositor at \(name) offers no xdg_wm_base (xdg-shell)")
        }
        guard layerShell != nil || role == .shellWindows else {
            throw DesktopError(
                .unsupported,
                "the Wayland compositor has no wlr-layer-shell (zwlr_layer_shell_v1), which a wallpaper needs to "
                    + "put a surface below the windows; GNOME's Mutter lacks it. Compositors with it: sway, "
                    + "Hyprland, river, labwc, Wayfire, KDE Plasma. On GNOME, log in to \"GNOME on Xorg\", where "
                    + "the wallpaper is drawn through X11 desktop windows; `tiltfx run` shows a preset in an "
                    + "ordinary window, which works on any compositor but is not a wallpaper; on GNOME on Wayland, "
                    + "enable the tilt-wallpaper GNOME Shell extension, which runs `tiltfx wallpaper --gnome`")
        }
        try roundtrip()  // the outputs' names, modes and scales; the presentation clock
        (egl, config, context) = try Self.makeContext(display)
        try settle()  // a layer surface per output
        try roundtrip()  // their first configure
        try settle()  // their EGL surfaces
    }

    deinit {
        teardown()
    }

    package var outputs: [DesktopOutput] {
        heads.compactMap { $0.surface == nil ? nil : $0.output }
    }

    package func makeCurrent() throws(DesktopError) {
        guard eglMakeCurrent(egl, nil, nil, context) == EGL_TRUE else {
            throw DesktopError(.gl, "eglMakeCurrent without a surface failed with \(Self.eglErrorText())")
        }
    }

    package func dispatch(waitSeconds: Double) throws(DesktopError) -> DesktopEvents {
        let deadline = Self.now() + max(0, waitSeconds)
        while true {
            try readEvents(until: min(deadline, nextNotDrawnDeadline() ?? deadline))
            try settle()
            checkNotDrawn()
            if !pending.isEmpty || Self.now() >= deadline { break }
        }
        let events = pending
        pending = DesktopEvents()
        return events
    }

    /// Draws `output`'s frame (see ``DesktopSurfaces/draw(output:tag:_:)``). An output without a surface (removed
    /// in events not read yet, or not configured yet) is skipped: `body` is not called.
    /// - Throws: ``DesktopError`` with kind `.gl` when EGL fails, `.lost` when the connection ended; what `body`
    ///   throws.
    package func draw(output: String, tag: Double, _ body: (_ width: Int, _ height: Int) throws -> Void) throws {
        guard let head = heads.first(where: { $0.name == output }) else { return }
        try setBufferSize(head, scale: 1)
        try present(head, tag: tag, body)
    }

    /// With `wp_viewporter`: the buffer is made `scale` of the surface's pixels each way and the compositor
    /// stretches it to the output (its viewport's destination is the output's logical size), so neither a
    /// stretching pass nor a full-size buffer's copy is paid. Without it, draws nothing and returns `false`.
    package func drawScaled(
        output: String, tag: Double, scale: Double, _ body: (_ width: Int, _ height: Int) throws -> Void
    ) throws -> Bool {
        guard let viewporter, let head = heads.first(where: { $0.name == output }), let surface = head.surface else {
            return false
        }
        if head.viewport == nil { head.viewport = wp_viewporter_get_viewport(viewporter, surface) }
        try setBufferSize(head, scale: scale)
        try present(head, tag: tag, body)
        return true
    }

    /// Sizes `head`'s EGL window at `scale` of its pixels (1: all of them, as ``applySize(_:)`` set them), the
    /// viewport stretching a smaller one to the output's logical size.
    private func setBufferSize(_ head: WaylandHead, scale: Double) throws(DesktopError) {
        guard let window = head.eglWindow, let surface = head.surface else { return }
        let width = scale < 1 ? max(1, Int((Double(head.width) * scale).rounded())) : head.width
        let height = scale < 1 ? max(1, Int((Double(head.height) * scale).rounded())) : head.height
        guard width != head.bufferWidth || height != head.bufferHeight else { return }
        wl_egl_window_resize(window, Int32(width), Int32(height), 0, 0)
        // Mesa takes a window's new size only with its next back buffer, and the surface holds one already (it was
        // made current when made): without a new EGL surface on the resized window, the next frame is drawn at the
        // new size into a buffer of the old one.
        if let old = head.eglSurface {
            if eglGetCurrentSurface(EGLint(EGL_DRAW)) == old { eglMakeCurrent(egl, nil, nil, context) }
            eglDestroySurface(egl, old)
            head.eglSurface = nil
            guard let new = eglCreatePlatformWindowSurface(egl, config, UnsafeMutableRawPointer(window), nil),
                eglMakeCurrent(egl, new, new, context) == EGL_TRUE
            else {
                throw DesktopError(
                    .gl, "a \(width)×\(height) EGL surface for \(head.name) failed with \(Self.eglErrorText())")
            }
            eglSwapInterval(egl, 0)
            head.eglSurface = new
        }
        if width != head.width || height != head.height, let viewport = head.viewport {
            wp_viewport_set_destination(viewport, Int32(head.logicalWidth), Int32(head.logicalHeight))
            if compositorVersion >= 3 { wl_surface_set_buffer_scale(surface, 1) }
        } else if head.scale120 == nil {
            // Back to every pixel: the buffer's own scale again, as applySize set it (a fractional scale keeps its
            // viewport).
            if let viewport = head.viewport { wp_viewport_set_destination(viewport, -1, -1) }
            if compositorVersion >= 3 { wl_surface_set_buffer_scale(surface, Int32(head.scale)) }
        }
        head.bufferWidth = width
        head.bufferHeight = height
    }

    /// Draws `head`'s frame with `body` at its buffer's size and shows it: frame callback, presentation feedback,
    /// swap.
    private func present(_ head: WaylandHead, tag: Double, _ body: (_ width: Int, _ height: Int) throws -> Void)
        throws
    {
        guard let surface = head.surface, let eglSurface = head.eglSurface else { return }
        let output = head.name
        guard eglMakeCurrent(egl, eglSurface, eglSurface, context) == EGL_TRUE else {
            throw DesktopError(.gl, "eglMakeCurrent on \(output)'s surface failed with \(Self.eglErrorText())")
        }
        try body(head.bufferWidth, head.bufferHeight)
        if let old = head.frameCallback { wl_callback_destroy(old) }
        head.frameCallback = wl_surface_frame(surface)
        wl_callback_add_listener(head.frameCallback, WaylandListeners.frame, Unmanaged.passUnretained(head).toOpaque())
        if let presentation, let feedback = wp_presentation_feedback(presentation, surface) {
            let frame = WaylandFrame(head: head, tag: tag, proxy: feedback)
            head.feedbacks.append(frame)
            wp_presentation_feedback_add_listener(
                feedback, WaylandListeners.feedback, Unmanaged.passUnretained(frame).toOpaque())
        }
        head.drawnAt = Self.now()
        head.ready = false
        guard eglSwapBuffers(egl, eglSurface) == EGL_TRUE else {
            try checkConnection()
            throw DesktopError(.gl, "eglSwapBuffers on \(output) failed with \(Self.eglErrorText())")
        }
        try checkConnection()
    }

    // MARK: Events

    private func roundtrip() throws(DesktopError) {
        if wl_display_roundtrip(display) < 0 {
            try checkConnection()
            throw DesktopError(.lost, "the connection to the Wayland compositor ended during a roundtrip")
        }
    }

    /// Reads what the compositor sent, waiting in poll(2) until `deadline` for the first event.
    private func readEvents(until deadline: Double) throws(DesktopError) {
        // Whatever is queued already is handled first; prepare_read fails until the queue is empty.
        while wl_display_prepare_read(display) != 0 {
            if wl_display_dispatch_pending(display) < 0 { try checkConnection() }
        }
        var wantWrite = false
        if wl_display_flush(display) < 0 {
            if errno == EAGAIN {
                wantWrite = true  // the socket is full: flush again when it can take more
            } else {
                let why = String(cString: strerror(errno))
                wl_display_cancel_read(display)
                try checkConnection()
                throw DesktopError(.lost, "the connection to the Wayland compositor ended (\(why))")
            }
        }
        let somethingQueued = !pending.isEmpty
        let timeout = somethingQueued ? 0 : Int32(max(0, min((deadline - Self.now()) * 1000, 1e9)).rounded(.up))
        var fds = [
            pollfd(
                fd: wl_display_get_fd(display), events: Int16(POLLIN) | (wantWrite ? Int16(POLLOUT) : 0), revents: 0)
        ]
        if let shell, !shell.ended { fds.append(pollfd(fd: shell.fd, events: Int16(POLLIN), revents: 0)) }
        let ready = poll(&fds, nfds_t(fds.count), timeout)
        if ready > 0, fds.count > 1, fds[1].revents != 0, let shell, shell.read() {
            if shell.ended { pending.shellLeft = true }
            updateVisibility()
        }
        let fd = fds[0]
        if ready > 0 && fd.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
            if wl_display_read_events(display) < 0 { try checkConnection() }
        } else {
            wl_display_cancel_read(display)
        }
        if wl_display_dispatch_pending(display) < 0 { try checkConnection() }
        if wantWrite { _ = wl_display_flush(display) }
        try checkConnection()
    }

    /// Throws `.lost` when the connection has an error (the compositor went away or sent a protocol error).
    func checkConnection() throws(DesktopError) {
        let code = wl_display_get_error(display)
        guard code != 0 else { return }
        var interface: UnsafePointer<wl_interface>?
        var id: UInt32 = 0
        let protocolCode = wl_display_get_protocol_error(display, &interface, &id)
        if code == EPROTO, let interface {
            let name = String(cString: interface.pointee.name)
            throw DesktopError(
                .lost, "the Wayland compositor ended the connection: protocol error \(protocolCode) on \(name)@\(id)")
        }
        throw DesktopError(.lost, "the connection to the Wayland compositor ended (\(String(cString: strerror(code))))")
    }

    /// Brings the surfaces in line with what the listeners saw: a layer surface for each output that has its name
    /// and no surface, configures acknowledged, EGL surfaces made or resized, outputs added, resized or removed.
    private func settle() throws(DesktopError) {
        for head in heads {
            if head.removed || head.closed {
                if head.surface != nil {
                    if head.announced { pending.removed.append(head.name) }
                    destroySurface(head)
                }
                if head.removed { releaseOutput(head) }
                continue
            }
            guard head.described, !head.awaitingXdgName, filter?.contains(head.name) ?? true else { continue }
            if role == .shellWindows {
                guard settleWindow(head) else { continue }
            } else {
                if head.surface == nil { makeLayerSurface(head) }
                guard let layerSurface = head.layerSurface else { continue }
                if let serial = head.configureSerial {
                    head.configureSerial = nil
                    zwlr_layer_surface_v1_ack_configure(layerSurface, serial)
                    head.resizeNeeded = true
                }
            }
            if head.resizeNeeded {
                head.resizeNeeded = false
                try applySize(head)
            }
        }
        heads.removeAll { $0.removed }
        for toplevel in toplevels where toplevel.closed { zwlr_foreign_toplevel_handle_v1_destroy(toplevel.handle) }
        toplevels.removeAll { $0.closed }
        updateVisibility()
    }

    private func makeLayerSurface(_ head: WaylandHead) {
        guard let compositor, let layerShell, let wlOutput = head.wlOutput,
            let surface = wl_compositor_create_surface(compositor)
        else { return }
        guard
            let layerSurface = zwlr_layer_shell_v1_get_layer_surface(
                layerShell, surface, wlOutput, ZWLR_LAYER_SHELL_V1_LAYER_BACKGROUND.rawValue, "tiltfx-wallpaper")
        else {
            wl_surface_destroy(surface)
            return
        }
        head.surface = surface
        head.layerSurface = layerSurface
        let user = Unmanaged.passUnretained(head).toOpaque()
        zwlr_layer_surface_v1_add_listener(layerSurface, WaylandListeners.layerSurface, user)
        let edges =
            ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP.rawValue | ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM.rawValue
            | ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT.rawValue | ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT.rawValue
        zwlr_layer_surface_v1_set_anchor(layerSurface, edges)
        zwlr_layer_surface_v1_set_exclusive_zone(layerSurface, -1)
        zwlr_layer_surface_v1_set_size(layerSurface, 0, 0)
        zwlr_layer_surface_v1_set_keyboard_interactivity(layerSurface, 0)
        if let fractionalScaleManager, let viewporter {
            head.viewport = wp_viewporter_get_viewport(viewporter, surface)
            head.fractionalScale = wp_fractional_scale_manager_v1_get_fractional_scale(fractionalScaleManager, surface)
            wp_fractional_scale_v1_add_listener(head.fractionalScale, WaylandListeners.fractionalScale, user)
        }
        wl_surface_commit(surface)  // no buffer: asks for the first configure
    }

    /// Makes `head`'s window when it has none, keeps it its output's size and acknowledges its configure; returns
    /// whether it has been configured, so that its EGL surface can be made and drawn.
    private func settleWindow(_ head: WaylandHead) -> Bool {
        if head.surface == nil { makeWindow(head) }
        guard let xdgSurface = head.xdgSurface, let toplevel = head.xdgToplevel else { return false }
        let (width, height) = head.windowSize
        if (width, height) != (head.logicalWidth, head.logicalHeight) {
            head.logicalWidth = width
            head.logicalHeight = height
            xdg_toplevel_set_min_size(toplevel, Int32(width), Int32(height))
            xdg_toplevel_set_max_size(toplevel, Int32(width), Int32(height))
            head.resizeNeeded = true
        }
        if let serial = head.configureSerial {
            head.configureSerial = nil
            xdg_surface_ack_configure(xdgSurface, serial)
            head.windowConfigured = true
            head.resizeNeeded = true
        }
        return head.windowConfigured
    }

    /// An `xdg_toplevel` for `head`, the output's size with its minimum and maximum size set to it (so that the
    /// compositor neither resizes nor maximizes it), titled for the desktop shell to find.
    private func makeWindow(_ head: WaylandHead) {
        guard let compositor, let wmBase, let surface = wl_compositor_create_surface(compositor) else { return }
        guard let xdgSurface = xdg_wm_base_get_xdg_surface(wmBase, surface) else {
            wl_surface_destroy(surface)
            return
        }
        guard let toplevel = xdg_surface_get_toplevel(xdgSurface) else {
            xdg_surface_destroy(xdgSurface)
            wl_surface_destroy(surface)
            return
        }
        head.surface = surface
        head.xdgSurface = xdgSurface
        head.xdgToplevel = toplevel
        let user = Unmanaged.passUnretained(head).toOpaque()
        xdg_surface_add_listener(xdgSurface, WaylandListeners.xdgSurface, user)
        xdg_toplevel_add_listener(toplevel, WaylandListeners.xdgToplevel, user)
        xdg_toplevel_set_title(toplevel, Self.windowTitle(output: head.name))
        xdg_toplevel_set_app_id(toplevel, Self.appID)
        let (width, height) = head.windowSize
        head.logicalWidth = width
        head.logicalHeight = height
        xdg_toplevel_set_min_size(toplevel, Int32(width), Int32(height))
        xdg_toplevel_set_max_size(toplevel, Int32(width), Int32(height))
        wl_surface_commit(surface)  // no buffer: asks for the first configure
    }

    /// Sizes `head`'s surface for its configured logical size and its scale, making its EGL surface the first time.
    func applySize(_ head: WaylandHead) throws(DesktopError) {
        guard let surface = head.surface, head.logicalWidth > 0, head.logicalHeight > 0 else { return }
        let (width, height): (Int, Int)
        if let scale120 = head.scale120, head.viewport != nil {
            width = (head.logicalWidth * scale120 + 60) / 120
            height = (head.logicalHeight * scale120 + 60) / 120
            wp_viewport_set_destination(head.viewport, Int32(head.logicalWidth), Int32(head.logicalHeight))
            if compositorVersion >= 3 { wl_surface_set_buffer_scale(surface, 1) }  // the viewport scales instead
        } else {
            width = head.logicalWidth * head.scale
            height = head.logicalHeight * head.scale
            if compositorVersion >= 3 { wl_surface_set_buffer_scale(surface, Int32(head.scale)) }
        }
        if let compositor, let region = wl_compositor_create_region(compositor) {
            wl_region_add(region, 0, 0, Int32(head.logicalWidth), Int32(head.logicalHeight))
            wl_surface_set_opaque_region(surface, region)
            wl_region_destroy(region)
        }
        if let window = head.eglWindow {
            if width != head.width || height != head.height || head.rotationChanged {
                wl_egl_window_resize(window, Int32(width), Int32(height), 0, 0)
                head.width = width
                head.height = height
                head.bufferWidth = width
                head.bufferHeight = height
                head.rotationChanged = false
                if head.announced { pending.resized.append(head.name) }
            }
            return
        }
        guard let window = wl_egl_window_create(surface, Int32(width), Int32(height)) else {
            throw DesktopError(.gl, "wl_egl_window_create(\(width)×\(height)) failed for \(head.name)")
        }
        guard let eglSurface = eglCreatePlatformWindowSurface(egl, config, UnsafeMutableRawPointer(window), nil)
        else {
            wl_egl_window_destroy(window)
            throw DesktopError(
                .gl, "eglCreatePlatformWindowSurface on \(head.name) failed with \(Self.eglErrorText())")
        }
        head.eglWindow = window
        head.eglSurface = eglSurface
        head.width = width
        head.height = height
        head.bufferWidth = width
        head.bufferHeight = height
        // The swap interval belongs to the surface current when it is set.
        guard eglMakeCurrent(egl, eglSurface, eglSurface, context) == EGL_TRUE else {
            throw DesktopError(.gl, "eglMakeCurrent on \(head.name)'s surface failed with \(Self.eglErrorText())")
        }
        eglSwapInterval(egl, 0)
        head.announced = true
        head.ready = true
        pending.added.append(head.name)
    }

    /// Destroys `head`'s surface and everything on it; its `wl_output` stays while the global does.
    private func destroySurface(_ head: WaylandHead) {
        if let eglSurface = head.eglSurface {
            if eglGetCurrentSurface(EGLint(EGL_DRAW)) == eglSurface {
                eglMakeCurrent(egl, nil, nil, context)
            }
            eglDestroySurface(egl, eglSurface)
        }
        if let window = head.eglWindow { wl_egl_window_destroy(window) }
        if let callback = head.frameCallback { wl_callback_destroy(callback) }
        for frame in head.feedbacks { wp_presentation_feedback_destroy(frame.proxy) }
        if let fractionalScale = head.fractionalScale { wp_fractional_scale_v1_destroy(fractionalScale) }
        if let viewport = head.viewport { wp_viewport_destroy(viewport) }
        if let layerSurface = head.layerSurface { zwlr_layer_surface_v1_destroy(layerSurface) }
        if let toplevel = head.xdgToplevel { xdg_toplevel_destroy(toplevel) }
        if let xdgSurface = head.xdgSurface { xdg_surface_destroy(xdgSurface) }
        if let surface = head.surface { wl_surface_destroy(surface) }
        head.eglSurface = nil
        head.eglWindow = nil
        head.frameCallback = nil
        head.feedbacks = []
        head.fractionalScale = nil
        head.viewport = nil
        head.layerSurface = nil
        head.xdgToplevel = nil
        head.xdgSurface = nil
        head.surface = nil
        head.announced = false
        head.configureSerial = nil
        head.windowConfigured = false
    }

    /// Asks `xdg_output` for `head`'s name and logical size, once there is both a head and the manager.
    func describe(_ head: WaylandHead) {
        guard let xdgOutputManager, head.xdgOutput == nil, let wlOutput = head.wlOutput,
            let xdgOutput = zxdg_output_manager_v1_get_xdg_output(xdgOutputManager, wlOutput)
        else { return }
        head.xdgOutput = xdgOutput
        head.awaitingXdgName = true
        zxdg_output_v1_add_listener(xdgOutput, WaylandListeners.xdgOutput, Unmanaged.passUnretained(head).toOpaque())
    }

    private func releaseOutput(_ head: WaylandHead) {
        if let xdgOutput = head.xdgOutput { zxdg_output_v1_destroy(xdgOutput) }
        head.xdgOutput = nil
        head.awaitingXdgName = false
        guard let wlOutput = head.wlOutput else { return }
        if wl_output_get_version(wlOutput) >= 3 { wl_output_release(wlOutput) } else { wl_output_destroy(wlOutput) }
        head.wlOutput = nil
    }

    // MARK: Visibility

    /// The earliest time an output that waits for a frame callback becomes `.notDrawn`.
    private func nextNotDrawnDeadline() -> Double? {
        heads.compactMap { head in
            head.frameCallback != nil && !head.notDrawn ? head.drawnAt + notDrawnAfter : nil
        }.min()
    }

    private func checkNotDrawn() {
        let now = Self.now()
        for head in heads where head.frameCallback != nil && !head.notDrawn && now >= head.drawnAt + notDrawnAfter {
            head.notDrawn = true
        }
        updateVisibility()
    }

    /// Works out every output's visibility from the toplevels on it and its frame callbacks, reporting changes.
    ///
    /// A fullscreen active window says the most (`.fullscreen`), then any fullscreen or maximized window
    /// (`.covered`), then a missing frame callback (`.notDrawn`): a compositor may stop the callbacks of a covered
    /// surface, and the cover is the reason.
    func updateVisibility() {
        for head in heads where head.announced {
            let on = toplevels.filter { $0.outputs.contains(where: { $0 == head.wlOutput }) }
            let told = shell?.control.visibility(of: head.name)
            let visibility: DesktopOutput.Visibility =
                if let told, told != .visible {
                    told
                } else if on.contains(where: { $0.activated && $0.fullscreen }) {
                    .fullscreen
                } else if on.contains(where: { $0.fullscreen || $0.maximized }) {
                    .covered
                } else if head.notDrawn {
                    .notDrawn
                } else {
                    .visible
                }
            if visibility != head.visibility {
                head.visibility = visibility
                pending.visibilityChanged.append(head.name)
            }
        }
    }

    // MARK: EGL

    private static func makeContext(_ display: OpaquePointer) throws(DesktopError) -> (
        EGLDisplay, EGLConfig, EGLContext
    ) {
        let place = "on the Wayland display"
        let egl: EGLDisplay
        do {
            egl = try EGLSetup.display(
                platform: EGLenum(EGL_PLATFORM_WAYLAND_KHR), native: UnsafeMutableRawPointer(display),
                extensionName: "EGL_KHR_platform_wayland", place: place)
        } catch {
            throw DesktopError(.gl, error.message)
        }
        // No alpha: the wallpaper is opaque, and an XRGB buffer tells the compositor so.
        guard let config = EGLSetup.configs(egl, surfaceType: EGL_WINDOW_BIT, alphaSize: 0).first else {
            eglTerminate(egl)
            throw DesktopError(.gl, "EGL \(place) has no 8-bit RGB window config for OpenGL ES 3")
        }
        let context: EGLContext
        do {
            context = try EGLSetup.context(egl, config: config, place: place)
            try EGLSetup.makeCurrentWithoutSurface(egl, context, place: place)
        } catch {
            eglTerminate(egl)
            throw DesktopError(.gl, error.message)
        }
        return (egl, config, context)
    }

    private static func eglErrorText() -> String { EGLSetup.errorText }

    /// Seconds on the monotonic clock.
    static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    private func teardown() {
        for head in heads {
            destroySurface(head)
            releaseOutput(head)
        }
        heads = []
        for toplevel in toplevels { zwlr_foreign_toplevel_handle_v1_destroy(toplevel.handle) }
        toplevels = []
        if let egl {
            eglMakeCurrent(egl, nil, nil, nil)
            if let context { eglDestroyContext(egl, context) }
            eglTerminate(egl)
        }
        if let toplevelManager { zwlr_foreign_toplevel_manager_v1_destroy(toplevelManager) }
        if let presentation { wp_presentation_destroy(presentation) }
        if let fractionalScaleManager { wp_fractional_scale_manager_v1_destroy(fractionalScaleManager) }
        if let viewporter { wp_viewporter_destroy(viewporter) }
        if let layerShell { zwlr_layer_shell_v1_destroy(layerShell) }
        if let wmBase { xdg_wm_base_destroy(wmBase) }
        if let xdgOutputManager { zxdg_output_manager_v1_destroy(xdgOutputManager) }
        if let compositor { wl_compositor_destroy(compositor) }
        wl_registry_destroy(registry)
        wl_display_flush(display)
        wl_display_disconnect(display)
    }
}

/// A `wl_output` global and the wallpaper's surface on it.
final class WaylandHead {
    unowned let desktop: WaylandDesktop
    let global: UInt32
    var wlOutput: OpaquePointer?
    var name: String
    /// The first `wl_output.done` came: name, mode and scale are known.
    var described = false
    /// The global is gone.
    var removed = false
    /// The compositor closed the layer surface (the output was disabled).
    var closed = false
    var scale = 1
    var scale120: Int?
    var refreshRate: Double?
    var rotation = ScreenRotation.normal

    var surface: OpaquePointer?
    var layerSurface: OpaquePointer?
    var xdgSurface: OpaquePointer?
    var xdgToplevel: OpaquePointer?
    /// The current mode's size in pixels, as `wl_output.mode` says (a window's size in ``WaylandDesktop/Role-swift.enum/shellWindows``).
    var modeWidth = 0
    var modeHeight = 0
    /// The shell window's first configure was acknowledged: it may be drawn.
    var windowConfigured = false
    var xdgOutput: OpaquePointer?
    /// Asked `xdg_output` for the name and not told yet: no surface is made until it comes (or its `done`).
    var awaitingXdgName = false
    /// `wl_output.name` (version 4) named it; `xdg_output`'s name does not replace that.
    var namedByOutput = false
    /// `xdg_output`'s logical size, where it gave one.
    var xdgLogicalSize = (0, 0)

    /// The output's size in its logical pixels, turned as the output is: the size of its shell window.
    var windowSize: (Int, Int) {
        if xdgLogicalSize.0 > 0 && xdgLogicalSize.1 > 0 { return xdgLogicalSize }
        let width = modeWidth / max(1, scale)
        let height = modeHeight / max(1, scale)
        return rotation == .left || rotation == .right ? (height, width) : (width, height)
    }
    var viewport: OpaquePointer?
    var fractionalScale: OpaquePointer?
    var eglWindow: OpaquePointer?
    var eglSurface: EGLSurface?
    var configureSerial: UInt32?
    /// The scale or rotation changed: the surface's size in pixels is worked out again.
    var resizeNeeded = false
    var rotationChanged = false
    var scaleChanged = false
    var logicalWidth = 0
    var logicalHeight = 0
    var width = 0
    var height = 0
    /// The EGL window's size now: ``width``×``height``, or less while drawn at a render scale.
    var bufferWidth = 0
    var bufferHeight = 0
    /// Reported in `added` (and not yet in `removed`).
    var announced = false

    var ready = true
    var frameCallback: OpaquePointer?
    var drawnAt = 0.0
    var notDrawn = false
    var visibility = DesktopOutput.Visibility.visible
    var feedbacks: [WaylandFrame] = []

    init(desktop: WaylandDesktop, global: UInt32, wlOutput: OpaquePointer) {
        self.desktop = desktop
        self.global = global
        self.wlOutput = wlOutput
        self.name = "output-\(global)"
    }

    var output: DesktopOutput {
        DesktopOutput(
            name: name, width: width, height: height, refreshRate: refreshRate, visibility: visibility, ready: ready,
            rotation: rotation)
    }
}

/// A frame waiting for its presentation feedback.
final class WaylandFrame {
    unowned let head: WaylandHead
    let tag: Double
    let proxy: OpaquePointer

    init(head: WaylandHead, tag: Double, proxy: OpaquePointer) {
        self.head = head
        self.tag = tag
        self.proxy = proxy
    }
}

/// A window, as `zwlr_foreign_toplevel_manager_v1` describes it.
final class WaylandToplevel {
    unowned let desktop: WaylandDesktop
    let handle: OpaquePointer
    var outputs: [OpaquePointer] = []
    var activated = false
    var fullscreen = false
    var maximized = false
    /// The state that comes with the next `done`.
    var pendingState: (activated: Bool, fullscreen: Bool, maximized: Bool)?
    var closed = false

    init(desktop: WaylandDesktop, handle: OpaquePointer) {
        self.desktop = desktop
        self.handle = handle
    }
}
