import CEGL
import CXRandR
import Foundation
import Testing
import TiltCore
import TiltTestKit

@testable import TiltDesktop

/// `X11Desktop` against a real X server (Xvfb): its windows as a window manager sees them, monitors coming and
/// going, drawing, and the server ending.
@Suite(.serialized, .enabled(if: XvfbSession.isAvailable, "needs Xvfb (scripts/bootstrap installs xvfb)"))
struct X11DesktopTests {
    @Test(
        "one desktop window per RandR monitor, typed, stacked and hinted before it is mapped, covering the monitor",
        .enabled(if: XvfbSession.hasXrandr, "needs xrandr (x11-xserver-utils)"))
    func windowPerMonitor() throws {
        let session = try XvfbSession()
        try session.xrandr(["--setmonitor", "LEFT", "640/169x800/212+0+0", "none"])
        try session.xrandr(["--setmonitor", "RIGHT", "640/169x800/212+640+0", "none"])
        do {
            // Another program's window, mapped first: the wallpaper goes below it.
            let probe = try XProbe(session.display)
            let other = probe.makeClient(XRect(x: 10, y: 10, width: 50, height: 50))
            XMapWindow(probe.display, other)
            XSync(probe.display, 0)

            let desktop = try X11Desktop(displayName: session.display)
            let events = try desktop.dispatch(waitSeconds: 0)
            #expect(Set(events.added).isSuperset(of: ["LEFT", "RIGHT"]))
            #expect(Set(desktop.outputs.map(\.name)) == Set(events.added))
            // (Xvfb's own `screen` monitor lies under LEFT and RIGHT: fully obscured, so not drawn.)
            #expect(desktop.outputs.filter { $0.name != "screen" }.allSatisfy { $0.visibility == .visible })
            let stack = probe.stack()
            let otherIndex = try #require(stack.firstIndex(of: other))
            for surface in desktop.surfaces.values {
                #expect(try #require(stack.firstIndex(of: surface.window)) < otherIndex, "below other windows")
            }
            for (name, rect) in [
                ("LEFT", XRect(x: 0, y: 0, width: 640, height: 800)),
                ("RIGHT", XRect(x: 640, y: 0, width: 640, height: 800)),
            ] {
                let window = try #require(desktop.surfaces[name]?.window)
                #expect(probe.atoms(window, "_NET_WM_WINDOW_TYPE") == ["_NET_WM_WINDOW_TYPE_DESKTOP"])
                #expect(
                    Set(probe.atoms(window, "_NET_WM_STATE")) == [
                        "_NET_WM_STATE_BELOW", "_NET_WM_STATE_STICKY", "_NET_WM_STATE_SKIP_TASKBAR",
                        "_NET_WM_STATE_SKIP_PAGER",
                    ])
                // Xlib hands a format-32 item over in a C long, sign-extended.
                #expect(probe.longs(window, "_NET_WM_DESKTOP").map { UInt32(truncatingIfNeeded: $0) } == [0xFFFF_FFFF])
                #expect(probe.string(window, "WM_CLASS") == "tiltfx-wallpaper\0tiltfx-wallpaper\0")
                #expect(probe.string(window, "_NET_WM_NAME")?.contains(name) == true)
                let hints = probe.longs(window, "WM_HINTS")
                #expect(hints.count >= 2 && hints[0] & 1 == 1 && hints[1] == 0, "WM_HINTS input False")
                #expect(probe.rect(window) == rect)
                #expect(eventually(timeout: 30) { probe.isViewable(window) })
                let output = try #require(desktop.outputs.first { $0.name == name })
                #expect(output.width == 640 && output.height == 800 && output.ready && output.rotation == .normal)
            }
        }
        session.kill()
    }

    @Test(
        "a monitor set while running arrives in added with its window; deleted, in removed without one",
        .enabled(if: XvfbSession.hasXrandr, "needs xrandr (x11-xserver-utils)"))
    func monitorsFollowed() throws {
        let session = try XvfbSession()
        do {
            let desktop = try X11Desktop(displayName: session.display)
            _ = try desktop.dispatch(waitSeconds: 0)
            let probe = try XProbe(session.display)
            try session.xrandr(["--setmonitor", "EXTRA", "400/100x300/75+100+200", "none"])
            var added: [String] = []
            #expect(
                try eventually(timeout: 60) {
                    added += try desktop.dispatch(waitSeconds: 0.5).added
                    return added.contains("EXTRA")
                })
            let window = try #require(desktop.surfaces["EXTRA"]?.window)
            #expect(probe.rect(window) == XRect(x: 100, y: 200, width: 400, height: 300))
            #expect(desktop.outputs.contains { $0.name == "EXTRA" && $0.width == 400 && $0.height == 300 })

            // Another rectangle under the same name. Xvfb refuses to replace a monitor, so it is deleted and set
            // again with the server grabbed: the wallpaper reads the monitors after both, and sees a resize.
            probe.replaceMonitor("EXTRA", XRect(x: 300, y: 100, width: 500, height: 200))
            var resized: [String] = []
            #expect(
                try eventually(timeout: 60) {
                    resized += try desktop.dispatch(waitSeconds: 0.5).resized
                    return resized.contains("EXTRA")
                })
            #expect(desktop.outputs.contains { $0.name == "EXTRA" && $0.width == 500 && $0.height == 200 })
            let movedWindow = try #require(desktop.surfaces["EXTRA"]?.window)
            #expect(movedWindow == window, "the same window, moved")
            #expect(
                eventually(timeout: 30) { probe.rect(movedWindow) == XRect(x: 300, y: 100, width: 500, height: 200) })

            try session.xrandr(["--delmonitor", "EXTRA"])
            var removed: [String] = []
            #expect(
                try eventually(timeout: 60) {
                    removed += try desktop.dispatch(waitSeconds: 0.5).removed
                    return removed.contains("EXTRA")
                })
            #expect(desktop.surfaces["EXTRA"] == nil)
            #expect(!desktop.outputs.contains { $0.name == "EXTRA" })
            #expect(eventually(timeout: 30) { probe.rect(movedWindow) == nil }, "the window is destroyed")
        }
        session.kill()
    }

    @Test("without RandR 1.5's monitors, the CRTCs that show something are the outputs, named as their outputs")
    func crtcFallback() throws {
        let session = try XvfbSession()
        do {
            let desktop = try X11Desktop(displayName: session.display)
            desktop.hasMonitors = false  // as on a server with RandR 1.3 or 1.4
            let monitors = desktop.readMonitors()
            #expect(monitors.map(\.name) == ["screen"])  // Xvfb's one output
            #expect(monitors.first.map { ($0.x, $0.y, $0.width, $0.height) } ?? (0, 0, 0, 0) == (0, 0, 1280, 800))
            #expect(monitors.first?.rotation == .normal)
        }
        session.kill()
    }

    @Test("dispatch sleeps in poll for its wait when nothing happens, and wakes for an event")
    func dispatchWaits() throws {
        let session = try XvfbSession()
        do {
            let desktop = try X11Desktop(displayName: session.display)
            _ = try desktop.dispatch(waitSeconds: 0)
            _ = try desktop.dispatch(waitSeconds: 0)  // the events of the windows' making
            let clock = ContinuousClock()
            let cpuBefore = cpuSeconds()
            var quiet = DesktopEvents()
            let waited = try clock.measure { quiet = try desktop.dispatch(waitSeconds: 1) }
            let cpu = cpuSeconds() - cpuBefore  // a test function without `await` stays on its thread
            #expect(quiet.isEmpty)
            #expect(waited >= .milliseconds(900))
            #expect(cpu < 0.5, "dispatch used \(cpu) s of CPU waiting 1 s: it must sleep, not spin")

            let probe = try XProbe(session.display)
            let client = probe.makeClient(XRect(x: 0, y: 0, width: 1280, height: 800))
            probe.setLongs(client, "_NET_WM_STATE", type: "ATOM", [Int(probe.atom("_NET_WM_STATE_FULLSCREEN"))])
            probe.setLongs(probe.root, "_NET_ACTIVE_WINDOW", type: "WINDOW", [Int(client)])
            var woken = DesktopEvents()
            let short = try clock.measure { woken = try desktop.dispatch(waitSeconds: 60) }
            #expect(woken.visibilityChanged == ["screen"])
            #expect(short < .seconds(30))
        }
        session.kill()
    }

    @Test("a colour cleared with GL shows in the output's window")
    func drawsColour() throws {
        let session = try XvfbSession()
        do {
            let desktop = try X11Desktop(displayName: session.display)
            let events = try desktop.dispatch(waitSeconds: 0)
            let name = try #require(events.added.first)
            try desktop.makeCurrent()
            let probe = try XProbe(session.display)
            let window = try #require(desktop.surfaces[name]?.window)
            var size = (0, 0)
            let red = try eventually(timeout: 60) {
                try desktop.draw(output: name, tag: 0) { width, height in
                    size = (width, height)
                    glClearColor(1, 0, 0, 1)
                    glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
                }
                return probe.pixel(window, x: 10, y: 10) == 0xFF0000
            }
            #expect(red, "the window's pixel is \(String(probe.pixel(window, x: 10, y: 10) ?? 0, radix: 16))")
            #expect(size == (1280, 800))
        }
        session.kill()
    }

    @Test("the X server ending makes dispatch throw .lost, and the process goes on")
    func serverEndsLost() throws {
        let session = try XvfbSession()
        let desktop = try X11Desktop(displayName: session.display)
        _ = try desktop.dispatch(waitSeconds: 0)
        session.kill()
        var kind: DesktopErrorKind?
        #expect(
            eventually(timeout: 30) {
                do {
                    _ = try desktop.dispatch(waitSeconds: 0.5)
                    return false
                } catch let error as DesktopError {
                    kind = error.kind
                    return true
                } catch {
                    return true
                }
            })
        #expect(kind == .lost)
        #expect(throws: DesktopError.self) { try desktop.dispatch(waitSeconds: 0) }
        #expect(throws: DesktopError.self) { try desktop.draw(output: "screen", tag: 0) { _, _ in } }
    }

    @Test("an X server without RandR is .unsupported")
    func noRandR() throws {
        let session = try XvfbSession(arguments: ["-extension", "RANDR"])
        do {
            _ = try X11Desktop(displayName: session.display)
            Issue.record("made a wallpaper on an X server without RandR")
        } catch {
            #expect(error.kind == .unsupported)
            #expect(error.message.contains("RandR"))
        }
        session.kill()
    }

    @Test("no X server to connect to is .noDisplay")
    func noDisplay() throws {
        do {
            _ = try X11Desktop(displayName: ":4711")
            Issue.record("connected to :4711")
        } catch {
            #expect(error.kind == .noDisplay)
        }
    }
}

/// A rectangle on the root window.
struct XRect: Equatable {
    var x: Int
    var y: Int
    var width: Int
    var height: Int
}

/// A second client of the test's X server that reads what the wallpaper's windows show a window manager, and
/// sets what a window manager would.
final class XProbe {
    let display: OpaquePointer
    let root: Window

    init(_ name: String) throws {
        guard let display = XOpenDisplay(name) else { throw TestError("cannot open \(name)") }
        self.display = display
        root = XDefaultRootWindow(display)
    }

    deinit { XCloseDisplay(display) }

    func atom(_ name: String) -> Atom { XInternAtom(display, name, 0) }

    func name(_ atom: Atom) -> String {
        guard let name = XGetAtomName(display, atom) else { return "?" }
        defer { XFree(name) }
        return String(cString: name)
    }

    private func property(_ window: Window, _ name: String) -> (format: Int32, count: Int, data: Data)? {
        var type: Atom = 0
        var format: Int32 = 0
        var count: UInt = 0
        var after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        guard
            XGetWindowProperty(
                display, window, atom(name), 0, 4096, 0, 0, &type, &format, &count, &after, &data) == Success,
            type != 0, let data
        else { return nil }
        defer { XFree(data) }
        let itemSize = format == 32 ? MemoryLayout<Int>.size : Int(format) / 8
        return (format, Int(count), Data(bytes: data, count: Int(count) * itemSize))
    }

    func longs(_ window: Window, _ name: String) -> [Int] {
        guard let p = property(window, name), p.format == 32 else { return [] }
        return p.data.withUnsafeBytes { Array($0.bindMemory(to: Int.self).prefix(p.count)) }
    }

    func atoms(_ window: Window, _ name: String) -> [String] {
        longs(window, name).map { self.name(Atom(bitPattern: $0)) }
    }

    func string(_ window: Window, _ name: String) -> String? {
        guard let p = property(window, name), p.format == 8 else { return nil }
        return String(decoding: p.data, as: UTF8.self)
    }

    func setLongs(_ window: Window, _ name: String, type: String, _ values: [Int]) {
        values.withUnsafeBytes { raw in
            _ = XChangeProperty(
                display, window, atom(name), atom(type), 32, PropModeReplace,
                raw.bindMemory(to: UInt8.self).baseAddress, Int32(values.count))
        }
        XFlush(display)
    }

    /// The window's rectangle in root coordinates, `nil` when it does not exist.
    func rect(_ window: Window) -> XRect? {
        var attributes = XWindowAttributes()
        guard XGetWindowAttributes(display, window, &attributes) != 0 else { return nil }
        var x: Int32 = 0
        var y: Int32 = 0
        var child: Window = 0
        XTranslateCoordinates(display, window, root, 0, 0, &x, &y, &child)
        return XRect(x: Int(x), y: Int(y), width: Int(attributes.width), height: Int(attributes.height))
    }

    func isViewable(_ window: Window) -> Bool {
        var attributes = XWindowAttributes()
        return XGetWindowAttributes(display, window, &attributes) != 0 && attributes.map_state == IsViewable
    }

    /// The window's pixel at (x, y) as 0xRRGGBB.
    func pixel(_ window: Window, x: Int32, y: Int32) -> UInt? {
        guard let image = XGetImage(display, window, x, y, 1, 1, UInt.max, ZPixmap) else { return nil }
        defer { _ = image.pointee.f.destroy_image(image) }
        let value = image.pointee.f.get_pixel(image, 0, 0)
        func channel(_ mask: UInt) -> UInt {
            guard mask != 0 else { return 0 }
            let shifted = (value & mask) >> UInt(mask.trailingZeroBitCount)
            let maximum = mask >> UInt(mask.trailingZeroBitCount)
            return shifted * 255 / maximum
        }
        return channel(image.pointee.red_mask) << 16 | channel(image.pointee.green_mask) << 8
            | channel(image.pointee.blue_mask)
    }

    /// Deletes the RandR monitor `name` and sets it again at `rect`, with the server grabbed so that no other
    /// client sees it missing in between.
    func replaceMonitor(_ name: String, _ rect: XRect) {
        XGrabServer(display)
        XRRDeleteMonitor(display, root, atom(name))
        if let monitor = XRRAllocateMonitor(display, 0) {
            monitor.pointee.name = atom(name)
            monitor.pointee.x = Int32(rect.x)
            monitor.pointee.y = Int32(rect.y)
            monitor.pointee.width = Int32(rect.width)
            monitor.pointee.height = Int32(rect.height)
            monitor.pointee.mwidth = Int32(rect.width / 4)
            monitor.pointee.mheight = Int32(rect.height / 4)
            XRRSetMonitor(display, root, monitor)
            XRRFreeMonitors(monitor)
        }
        XUngrabServer(display)
        XSync(display, 0)
    }

    /// The root's children, bottom first.
    func stack() -> [Window] {
        var rootReturn: Window = 0
        var parent: Window = 0
        var children: UnsafeMutablePointer<Window>?
        var count: UInt32 = 0
        guard XQueryTree(display, root, &rootReturn, &parent, &children, &count) != 0, let children else { return [] }
        defer { XFree(children) }
        return Array(UnsafeBufferPointer(start: children, count: Int(count)))
    }

    /// A client window at `rect`, not mapped (the wallpaper reads its geometry and properties).
    func makeClient(_ rect: XRect) -> Window {
        let window = XCreateSimpleWindow(
            display, root, Int32(rect.x), Int32(rect.y), UInt32(rect.width), UInt32(rect.height), 0, 0, 0)
        XFlush(display)
        return window
    }
}

/// The CPU time this thread used so far, in seconds (the thread's own: other tests run in the same process at the
/// same time).
func cpuSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}
