import CXRandR
import Foundation
import Testing
import TiltCore
import TiltTestKit

@testable import TiltDesktop

/// `X11Desktop`'s visibility from the EWMH properties a window manager sets; the test sets them as one would.
@Suite(
    .serialized, .enabled(if: XvfbSession.isAvailable, "needs Xvfb (scripts/bootstrap installs xvfb)"),
    .enabled(if: XvfbSession.hasXrandr, "needs xrandr (x11-xserver-utils)"))
struct X11DesktopVisibilityTests {
    /// Dispatches until `condition` holds on the outputs (60 s at most); returns the outputs whose visibility
    /// changed on the way.
    private func dispatch(_ desktop: X11Desktop, until condition: ([String: DesktopOutput.Visibility]) -> Bool)
        throws -> (held: Bool, changed: Set<String>)
    {
        var changed: Set<String> = []
        let held = try eventually(timeout: 60) {
            changed.formUnion(try desktop.dispatch(waitSeconds: 0.5).visibilityChanged)
            return condition(Dictionary(uniqueKeysWithValues: desktop.outputs.map { ($0.name, $0.visibility) }))
        }
        return (held, changed)
    }

    @Test("the active window fullscreen on a monitor makes it .fullscreen; no active window, .visible again")
    func fullscreenActiveWindow() throws {
        let session = try XvfbSession()
        try session.xrandr(["--setmonitor", "LEFT", "640/169x800/212+0+0", "none"])
        try session.xrandr(["--setmonitor", "RIGHT", "640/169x800/212+640+0", "none"])
        do {
            let desktop = try X11Desktop(outputs: ["LEFT", "RIGHT"], displayName: session.display)
            #expect(try dispatch(desktop) { $0["LEFT"] == .visible && $0["RIGHT"] == .visible }.held)

            let probe = try XProbe(session.display)
            let client = probe.makeClient(XRect(x: 0, y: 0, width: 640, height: 800))
            probe.setLongs(client, "_NET_WM_STATE", type: "ATOM", [Int(probe.atom("_NET_WM_STATE_FULLSCREEN"))])
            probe.setLongs(probe.root, "_NET_ACTIVE_WINDOW", type: "WINDOW", [Int(client)])
            let on = try dispatch(desktop) { $0["LEFT"] == .fullscreen }
            #expect(on.held)
            #expect(on.changed.contains("LEFT"))
            #expect(desktop.outputs.first { $0.name == "RIGHT" }?.visibility == .visible)

            // Moved to the other monitor (the wallpaper watches the client's geometry too).
            XMoveWindow(probe.display, client, 640, 0)
            XFlush(probe.display)
            #expect(try dispatch(desktop) { $0["RIGHT"] == .fullscreen && $0["LEFT"] == .visible }.held)

            probe.setLongs(probe.root, "_NET_ACTIVE_WINDOW", type: "WINDOW", [0])
            let off = try dispatch(desktop) { $0["RIGHT"] == .visible }
            #expect(off.held)
            #expect(off.changed.contains("RIGHT"))
        }
        session.kill()
    }

    @Test("a maximized client in _NET_CLIENT_LIST covers its monitor; its state cleared, it does not")
    func maximizedClientCovers() throws {
        let session = try XvfbSession()
        try session.xrandr(["--setmonitor", "LEFT", "640/169x800/212+0+0", "none"])
        try session.xrandr(["--setmonitor", "RIGHT", "640/169x800/212+640+0", "none"])
        do {
            let desktop = try X11Desktop(outputs: ["LEFT", "RIGHT"], displayName: session.display)
            #expect(try dispatch(desktop) { $0["LEFT"] == .visible && $0["RIGHT"] == .visible }.held)

            let probe = try XProbe(session.display)
            let client = probe.makeClient(XRect(x: 640, y: 30, width: 640, height: 770))
            let maximized = ["_NET_WM_STATE_MAXIMIZED_VERT", "_NET_WM_STATE_MAXIMIZED_HORZ"].map { Int(probe.atom($0)) }
            probe.setLongs(client, "_NET_WM_STATE", type: "ATOM", maximized)
            probe.setLongs(probe.root, "_NET_CLIENT_LIST", type: "WINDOW", [Int(client)])
            #expect(try dispatch(desktop) { $0["RIGHT"] == .covered }.held)
            #expect(desktop.outputs.first { $0.name == "LEFT" }?.visibility == .visible)

            // The window manager changes the client's state: the wallpaper watches the client's properties.
            probe.setLongs(client, "_NET_WM_STATE", type: "ATOM", [])
            #expect(try dispatch(desktop) { $0["RIGHT"] == .visible }.held)
        }
        session.kill()
    }

    @Test("a mapped window over a monitor's wallpaper hides it: .notDrawn; unmapped again, .visible")
    func obscuredIsNotDrawn() throws {
        let session = try XvfbSession()
        try session.xrandr(["--setmonitor", "LEFT", "640/169x800/212+0+0", "none"])
        try session.xrandr(["--setmonitor", "RIGHT", "640/169x800/212+640+0", "none"])
        do {
            let desktop = try X11Desktop(outputs: ["LEFT", "RIGHT"], displayName: session.display)
            #expect(try dispatch(desktop) { $0["LEFT"] == .visible && $0["RIGHT"] == .visible }.held)

            let probe = try XProbe(session.display)
            let client = probe.makeClient(XRect(x: 0, y: 0, width: 640, height: 800))
            XMapRaised(probe.display, client)
            XFlush(probe.display)
            #expect(try dispatch(desktop) { $0["LEFT"] == .notDrawn }.held)
            #expect(desktop.outputs.first { $0.name == "RIGHT" }?.visibility == .visible)

            XUnmapWindow(probe.display, client)
            XFlush(probe.display)
            #expect(try dispatch(desktop) { $0["LEFT"] == .visible }.held)
        }
        session.kill()
    }
}
