import CWayland
import Glibc
import TiltCore

/// The listeners of the Wayland objects ``WaylandDesktop`` uses: C structs of functions, one of each for the whole
/// process (libwayland keeps a pointer to them, so they live forever), that find their Swift object in the proxy's
/// user data (unretained: the object outlives its proxies). They only record what they hear; ``WaylandDesktop``
/// acts on it after dispatching.
enum WaylandListeners {
    private static func pin<T>(_ value: T) -> UnsafeMutablePointer<T> {
        let pointer = UnsafeMutablePointer<T>.allocate(capacity: 1)
        pointer.initialize(to: value)
        return pointer
    }

    private static func desktop(_ data: UnsafeMutableRawPointer?) -> WaylandDesktop {
        Unmanaged<WaylandDesktop>.fromOpaque(data!).takeUnretainedValue()
    }

    private static func head(_ data: UnsafeMutableRawPointer?) -> WaylandHead {
        Unmanaged<WaylandHead>.fromOpaque(data!).takeUnretainedValue()
    }

    private static func toplevel(_ data: UnsafeMutableRawPointer?) -> WaylandToplevel {
        Unmanaged<WaylandToplevel>.fromOpaque(data!).takeUnretainedValue()
    }

    /// The globals: binds what the wallpaper uses, notes outputs coming and going.
    nonisolated(unsafe) static let registry = pin(
        wl_registry_listener(
            global: { data, registry, name, interface, version in
                let desktop = WaylandListeners.desktop(data)
                guard let registry, let interface else { return }
                func bind(_ type: UnsafePointer<wl_interface>, _ most: UInt32) -> OpaquePointer? {
                    OpaquePointer(wl_registry_bind(registry, name, type, min(version, most)))
                }
                switch String(cString: interface) {
                case "wl_compositor":
                    desktop.compositor = bind(cwayland_compositor_interface(), 4)
                    desktop.compositorVersion = min(version, 4)
                case "zwlr_layer_shell_v1":
                    desktop.layerShell = bind(cwayland_layer_shell_interface(), 4)
                case "xdg_wm_base" where desktop.role == .shellWindows:
                    desktop.wmBase = bind(cwayland_xdg_wm_base_interface(), 2)
                    xdg_wm_base_add_listener(desktop.wmBase, WaylandListeners.wmBase, data)
                case "wl_output":
                    guard let output = bind(cwayland_output_interface(), 4) else { return }
                    let head = WaylandHead(desktop: desktop, global: name, wlOutput: output)
                    desktop.heads.append(head)
                    wl_output_add_listener(output, WaylandListeners.output, Unmanaged.passUnretained(head).toOpaque())
                    desktop.describe(head)
                case "zxdg_output_manager_v1":
                    desktop.xdgOutputManager = bind(cwayland_xdg_output_manager_interface(), 3)
                    for head in desktop.heads { desktop.describe(head) }
                case "wp_presentation":
                    desktop.presentation = bind(cwayland_presentation_interface(), 1)
                    wp_presentation_add_listener(desktop.presentation, WaylandListeners.presentation, data)
                case "zwlr_foreign_toplevel_manager_v1":
                    desktop.toplevelManager = bind(cwayland_toplevel_manager_interface(), 3)
                    zwlr_foreign_toplevel_manager_v1_add_listener(
                        desktop.toplevelManager, WaylandListeners.toplevelManager, data)
                case "wp_viewporter":
                    desktop.viewporter = bind(cwayland_viewporter_interface(), 1)
                case "wp_fractional_scale_manager_v1":
                    desktop.fractionalScaleManager = bind(cwayland_fractional_scale_manager_interface(), 1)
                default:
                    break
                }
            },
            global_remove: { data, _, name in
                let desktop = WaylandListeners.desktop(data)
                for head in desktop.heads where head.global == name { head.removed = true }
            }))

    /// An output's description; the surface follows its first `done`.
    nonisolated(unsafe) static let output = pin(
        wl_output_listener(
            geometry: { data, _, _, _, _, _, _, _, _, transform in
                let head = WaylandListeners.head(data)
                let rotation: ScreenRotation =
                    switch transform % 4 {
                    case 1: .left  // WL_OUTPUT_TRANSFORM_90 is counter-clockwise, as ScreenRotation counts
                    case 2: .inverted
                    case 3: .right
                    default: .normal
                    }
                if rotation != head.rotation {
                    head.rotation = rotation
                    head.rotationChanged = head.described
                }
            },
            mode: { data, _, flags, width, height, refresh in
                guard flags & WL_OUTPUT_MODE_CURRENT.rawValue != 0 else { return }
                let head = WaylandListeners.head(data)
                if (Int(width), Int(height)) != (head.modeWidth, head.modeHeight) {
                    head.modeWidth = Int(width)
                    head.modeHeight = Int(height)
                    head.scaleChanged = head.described  // a window of the output's size is sized again
                }
                if refresh > 0 { head.refreshRate = Double(refresh) / 1000 }
            },
            done: { data, _ in
                let head = WaylandListeners.head(data)
                if head.described {
                    head.resizeNeeded = head.resizeNeeded || head.rotationChanged || head.scaleChanged
                    head.scaleChanged = false
                }
                head.described = true
            },
            scale: { data, _, factor in
                let head = WaylandListeners.head(data)
                let scale = max(1, Int(factor))
                if scale != head.scale {
                    head.scale = scale
                    head.scaleChanged = head.described
                }
            },
            name: { data, _, name in
                let head = WaylandListeners.head(data)
                guard let name, !head.described else { return }  // the name is sent once, before the first done
                head.name = String(cString: name)
                head.namedByOutput = true
            },
            description: { _, _, _ in }))

    /// An output's name and logical size, where `wl_output` (before version 4) gives no name: GNOME's Mutter 43.
    nonisolated(unsafe) static let xdgOutput = pin(
        zxdg_output_v1_listener(
            logical_position: { _, _, _, _ in },
            logical_size: { data, _, width, height in
                let head = WaylandListeners.head(data)
                if (Int(width), Int(height)) != head.xdgLogicalSize {
                    head.xdgLogicalSize = (Int(width), Int(height))
                    head.scaleChanged = head.described
                }
            },
            done: { data, _ in
                WaylandListeners.head(data).awaitingXdgName = false
            },
            name: { data, _, name in
                let head = WaylandListeners.head(data)
                head.awaitingXdgName = false
                guard let name, !head.namedByOutput, head.surface == nil else { return }
                head.name = String(cString: name)
            },
            description: { _, _, _ in }))

    /// The layer surface's size from the compositor, and its end (the output was disabled).
    nonisolated(unsafe) static let layerSurface = pin(
        zwlr_layer_surface_v1_listener(
            configure: { data, _, serial, width, height in
                let head = WaylandListeners.head(data)
                head.configureSerial = serial
                head.logicalWidth = Int(width)
                head.logicalHeight = Int(height)
            },
            closed: { data, _ in
                WaylandListeners.head(data).closed = true
            }))

    /// The compositor checks the client is alive.
    nonisolated(unsafe) static let wmBase = pin(
        xdg_wm_base_listener(
            ping: { _, base, serial in
                xdg_wm_base_pong(base, serial)
            }))

    /// A shell window's configure: acknowledged when the desktop settles; its size stays the output's.
    nonisolated(unsafe) static let xdgSurface = pin(
        xdg_surface_listener(
            configure: { data, _, serial in
                WaylandListeners.head(data).configureSerial = serial
            }))

    /// A shell window's size and states from the compositor (ignored: the window keeps its output's size) and a
    /// request to close it (ignored: the desktop shell ends the wallpaper through its control channel).
    nonisolated(unsafe) static let xdgToplevel = pin(
        xdg_toplevel_listener(
            configure: { _, _, _, _, _ in },
            close: { _, _ in },
            configure_bounds: { _, _, _, _ in },
            wm_capabilities: { _, _, _ in }))

    /// A frame callback: the compositor wants the output's next frame.
    nonisolated(unsafe) static let frame = pin(
        wl_callback_listener(
            done: { data, callback, _ in
                let head = WaylandListeners.head(data)
                guard let callback, callback == head.frameCallback else { return }
                wl_callback_destroy(callback)
                head.frameCallback = nil
                head.ready = true
                head.notDrawn = false
                head.desktop.pending.ready.append(head.name)
            }))

    /// The clock of the presentation times.
    nonisolated(unsafe) static let presentation = pin(
        wp_presentation_listener(
            clock_id: { data, _, clock in
                WaylandListeners.desktop(data).presentationClock = clockid_t(clock)
            }))

    /// A frame's presentation: when it was shown, or that it never was.
    nonisolated(unsafe) static let feedback = pin(
        wp_presentation_feedback_listener(
            sync_output: { _, _, _ in },
            presented: { data, proxy, secondsHigh, secondsLow, nanoseconds, _, _, _, _ in
                let frame = Unmanaged<WaylandFrame>.fromOpaque(data!).takeUnretainedValue()
                let head = frame.head
                var shown = Double(UInt64(secondsHigh) << 32 | UInt64(secondsLow)) + Double(nanoseconds) / 1e9
                let clock = head.desktop.presentationClock
                if clock != CLOCK_MONOTONIC {
                    var t = timespec()
                    clock_gettime(clock, &t)
                    shown += WaylandDesktop.now() - (Double(t.tv_sec) + Double(t.tv_nsec) / 1e9)
                }
                head.desktop.pending.presented.append(.init(output: head.name, tag: frame.tag, shown: shown))
                wp_presentation_feedback_destroy(proxy)
                head.feedbacks.removeAll { $0 === frame }
            },
            discarded: { data, proxy in
                let frame = Unmanaged<WaylandFrame>.fromOpaque(data!).takeUnretainedValue()
                wp_presentation_feedback_destroy(proxy)
                frame.head.feedbacks.removeAll { $0 === frame }
            }))

    /// The output's preferred fractional scale, in 120ths.
    nonisolated(unsafe) static let fractionalScale = pin(
        wp_fractional_scale_v1_listener(
            preferred_scale: { data, _, scale in
                let head = WaylandListeners.head(data)
                if head.scale120 != Int(scale) {
                    head.scale120 = Int(scale)
                    head.resizeNeeded = true
                }
            }))

    /// New windows.
    nonisolated(unsafe) static let toplevelManager = pin(
        zwlr_foreign_toplevel_manager_v1_listener(
            toplevel: { data, _, handle in
                guard let handle else { return }
                let desktop = WaylandListeners.desktop(data)
                let toplevel = WaylandToplevel(desktop: desktop, handle: handle)
                desktop.toplevels.append(toplevel)
                zwlr_foreign_toplevel_handle_v1_add_listener(
                    handle, WaylandListeners.toplevel, Unmanaged.passUnretained(toplevel).toOpaque())
            },
            finished: { _, _ in }))

    /// A window's outputs and state, applied on `done`.
    nonisolated(unsafe) static let toplevel = pin(
        zwlr_foreign_toplevel_handle_v1_listener(
            title: { _, _, _ in },
            app_id: { _, _, _ in },
            output_enter: { data, _, output in
                guard let output else { return }
                WaylandListeners.toplevel(data).outputs.append(output)
            },
            output_leave: { data, _, output in
                WaylandListeners.toplevel(data).outputs.removeAll { $0 == output }
            },
            state: { data, _, array in
                let toplevel = WaylandListeners.toplevel(data)
                var state = (activated: false, fullscreen: false, maximized: false, minimized: false)
                if let array = array?.pointee, let bytes = array.data {
                    let values = bytes.bindMemory(to: UInt32.self, capacity: array.size / 4)
                    for i in 0..<(array.size / 4) {
                        switch values[i] {
                        case ZWLR_FOREIGN_TOPLEVEL_HANDLE_V1_STATE_ACTIVATED.rawValue: state.activated = true
                        case ZWLR_FOREIGN_TOPLEVEL_HANDLE_V1_STATE_FULLSCREEN.rawValue: state.fullscreen = true
                        case ZWLR_FOREIGN_TOPLEVEL_HANDLE_V1_STATE_MAXIMIZED.rawValue: state.maximized = true
                        case ZWLR_FOREIGN_TOPLEVEL_HANDLE_V1_STATE_MINIMIZED.rawValue: state.minimized = true
                        default: break
                        }
                    }
                }
                // A minimized window covers nothing, whatever else it is.
                toplevel.pendingState = (
                    state.activated && !state.minimized, state.fullscreen && !state.minimized,
                    state.maximized && !state.minimized
                )
            },
            done: { data, _ in
                let toplevel = WaylandListeners.toplevel(data)
                guard let state = toplevel.pendingState else { return }
                toplevel.pendingState = nil
                toplevel.activated = state.activated
                toplevel.fullscreen = state.fullscreen
                toplevel.maximized = state.maximized
            },
            closed: { data, _ in
                WaylandListeners.toplevel(data).closed = true
            },
            parent: { _, _, _ in }))
}
