import CEGL
import Foundation
import Testing
import TiltCore
import TiltDesktop
import TiltTestKit

#if canImport(Glibc)
    import Glibc
#endif

/// The Wayland wallpaper against a real compositor: a headless sway per test (``SwaySession``), no mocks.
///
/// Everything waits for a condition with a generous deadline (these run on busy 2-core machines), never for a
/// fixed time.
@Suite(
    .serialized,
    .enabled(
        if: SwaySession.isAvailable,
        "needs sway, grim and setpriv (scripts/bootstrap installs them) and root, to start sway as nobody"))
struct WaylandDesktopTests {
    /// Dispatches until `condition` holds for everything seen so far (or `timeout` seconds pass), and returns it.
    @discardableResult
    func pump(
        _ desktop: WaylandDesktop, timeout: Double = 60, until condition: (DesktopEvents) -> Bool
    ) throws -> DesktopEvents {
        var seen = DesktopEvents()
        let deadline = Deadline(seconds: timeout)
        while !condition(seen) && !deadline.hasPassed {
            let events = try desktop.dispatch(waitSeconds: 0.25)
            seen.added += events.added
            seen.removed += events.removed
            seen.resized += events.resized
            seen.visibilityChanged += events.visibilityChanged
            seen.ready += events.ready
            seen.presented += events.presented
        }
        return seen
    }

    /// Fills `output`'s surface with one colour.
    func fill(_ desktop: WaylandDesktop, _ output: String, _ rgb: (Float, Float, Float), tag: Double = 0) throws {
        try desktop.draw(output: output, tag: tag) { width, height in
            glViewport(0, 0, GLsizei(width), GLsizei(height))
            glClearColor(rgb.0, rgb.1, rgb.2, 1)
            glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        }
    }

    /// Whether the pixel at the centre of `shot` is `rgb` (0–255, give or take 8).
    func centre(_ shot: (rgba: [UInt8], width: Int, height: Int), is rgb: (Int, Int, Int)) -> Bool {
        let i = ((shot.height / 2) * shot.width + shot.width / 2) * 4
        guard i + 2 < shot.rgba.count else { return false }
        return abs(Int(shot.rgba[i]) - rgb.0) <= 8 && abs(Int(shot.rgba[i + 1]) - rgb.1) <= 8
            && abs(Int(shot.rgba[i + 2]) - rgb.2) <= 8
    }

    @Test func twoOutputsEachGetASurfaceOfTheirSizeShowingWhatWasDrawn() throws {
        let sway = try SwaySession(config: "output HEADLESS-2 resolution 480x270")
        let second = try sway.createOutput()
        #expect(second == "HEADLESS-2")
        let desktop = try WaylandDesktop(displayName: sway.displayPath)
        #expect(desktop.backend == "wayland (layer-shell)")
        let first = try pump(desktop) { Set($0.added) == ["HEADLESS-1", "HEADLESS-2"] }
        #expect(Set(first.added) == ["HEADLESS-1", "HEADLESS-2"])
        let sizes = Dictionary(uniqueKeysWithValues: desktop.outputs.map { ($0.name, [$0.width, $0.height]) })
        #expect(sizes == ["HEADLESS-1": [640, 360], "HEADLESS-2": [480, 270]])

        try fill(desktop, "HEADLESS-1", (1, 0, 0))
        try fill(desktop, "HEADLESS-2", (0, 0, 1))
        let drawn = try pump(desktop) { Set($0.ready).isSuperset(of: ["HEADLESS-1", "HEADLESS-2"]) }
        #expect(Set(drawn.ready).isSuperset(of: ["HEADLESS-1", "HEADLESS-2"]))

        for (output, rgb) in [("HEADLESS-1", (255, 0, 0)), ("HEADLESS-2", (0, 0, 255))] {
            var shot: (rgba: [UInt8], width: Int, height: Int) = ([], 0, 0)
            let shows = try eventually(timeout: 60) {
                _ = try desktop.dispatch(waitSeconds: 0)
                shot = try sway.screenshot(output: output)
                return centre(shot, is: rgb)
            }
            #expect(shows, "grim -o \(output) shows \(Array(shot.rgba.prefix(4))) at its corner, not \(rgb)")
            #expect([shot.width, shot.height] == sizes[output])
        }
    }

    @Test func anOutputCreatedWhileRunningIsAddedAndAnUnpluggedOneRemoved() throws {
        // Nested in another sway, whose windows are this one's outputs: closing one unplugs it.
        let host = try SwaySession()
        let sway = try SwaySession(
            resolution: "320x200", config: "output WL-2 resolution 256x160", host: host.displayPath)
        let desktop = try WaylandDesktop(displayName: sway.displayPath)
        try pump(desktop) { $0.added == ["WL-1"] }
        #expect(desktop.outputs.map(\.name) == ["WL-1"])

        let name = try sway.createOutput()
        let added = try pump(desktop) { $0.added.contains(name) }
        #expect(added.added == [name])
        // Its size is that of its window in the host, which the host tiles: wait until both agree.
        func size(_ name: String) -> [Int]? {
            desktop.outputs.first { $0.name == name }.map { [$0.width, $0.height] }
        }
        func swaySize(_ name: String) throws -> [Int]? {
            try sway.outputs().first { $0.name == name }.map { [$0.width, $0.height] }
        }
        try pump(desktop) { _ in (try? swaySize(name)) == size(name) }
        #expect(try size(name) == swaySize(name))
        #expect(try size("WL-1") == swaySize("WL-1"))
        try fill(desktop, name, (0, 1, 0))
        #expect(try pump(desktop) { $0.ready.contains(name) }.ready.contains(name))

        try host.swaymsg(["[title=\"wlroots - \(name)\"]", "kill"])
        let removed = try pump(desktop) { $0.removed.contains(name) }
        #expect(removed.removed == [name])
        #expect(desktop.outputs.map(\.name) == ["WL-1"])
        // Drawing on it now draws nothing and fails nothing: its removal may not have been read yet.
        try fill(desktop, name, (0, 1, 0))
        try fill(desktop, "WL-1", (0, 1, 0))
        #expect(try pump(desktop) { $0.ready.contains("WL-1") }.ready == ["WL-1"])
    }

    @Test func aDrawnOutputIsReadyAgainWhenItsFrameCallbackComes() throws {
        let sway = try SwaySession()
        let desktop = try WaylandDesktop(displayName: sway.displayPath)
        try pump(desktop) { !$0.added.isEmpty }
        #expect(desktop.outputs.first?.ready == true)

        try fill(desktop, "HEADLESS-1", (1, 1, 0), tag: 1)
        #expect(desktop.outputs.first?.ready == false)
        let seen = try pump(desktop) { $0.ready.contains("HEADLESS-1") }
        #expect(seen.ready == ["HEADLESS-1"])
        #expect(desktop.outputs.first?.ready == true)
        // Again: each draw asks for its own callback.
        try fill(desktop, "HEADLESS-1", (0, 1, 1), tag: 2)
        #expect(desktop.outputs.first?.ready == false)
        #expect(try pump(desktop) { $0.ready.contains("HEADLESS-1") }.ready == ["HEADLESS-1"])
        #expect(desktop.outputs.first?.ready == true)
    }

    @Test(
        .enabled(
            if: WestonSession.isAvailable,
            "needs weston: sway 1.7's headless backend sends no presentation feedback; one nested in weston does"))
    func presentationFeedbackComesWithTheDrawnTag() throws {
        let weston = try WestonSession()
        let sway = try SwaySession(host: weston.displayPath)
        let desktop = try WaylandDesktop(displayName: sway.displayPath)
        try pump(desktop) { !$0.added.isEmpty }
        let output = try #require(desktop.outputs.first?.name)
        let before = monotonicNow()

        // A compositor may report a frame's presentation only once the next one is committed: draw on each callback.
        var tags: [Double] = [1]
        var presented: [DesktopEvents.Presentation] = []
        let deadline = Deadline(seconds: 60)
        while presented.isEmpty && !deadline.hasPassed {
            if desktop.outputs.first?.ready == true {
                tags.append(Double(tags.count + 1))
                try fill(desktop, output, (1, 1, 0), tag: tags.last!)
            }
            presented += try desktop.dispatch(waitSeconds: 0.25).presented
        }
        let first = try #require(presented.first)
        #expect(first.output == output)
        #expect(tags.contains(first.tag))
        let after = monotonicNow()
        #expect(first.shown >= before && first.shown <= after, "shown \(first.shown) on the monotonic clock")
    }

    @Test func anOutputWhoseFrameCallbackDoesNotComeIsNotDrawnUntilItDoes() throws {
        // Nested: the host stops drawing the output's window when it is moved to a workspace not shown, so the
        // nested sway stops drawing the output, and its frame callbacks stop.
        let host = try SwaySession()
        let sway = try SwaySession(resolution: "320x200", host: host.displayPath)
        let desktop = try WaylandDesktop(displayName: sway.displayPath, notDrawnAfter: 0.5)
        try pump(desktop) { $0.added == ["WL-1"] }
        try fill(desktop, "WL-1", (1, 0, 1))
        try pump(desktop) { $0.ready == ["WL-1"] }
        #expect(desktop.outputs.first?.visibility == .visible)

        try host.swaymsg(["[title=\"wlroots - WL-1\"]", "move", "to", "workspace", "hidden"])
        // Frames drawn before the host noticed still get their callbacks: draw on each until one does not come.
        let hidden = try pump(desktop) { _ in
            if desktop.outputs.first?.ready == true { try? fill(desktop, "WL-1", (1, 0, 1)) }
            return desktop.outputs.first?.visibility == .notDrawn
        }
        #expect(desktop.outputs.first?.visibility == .notDrawn)
        #expect(hidden.visibilityChanged.contains("WL-1"))
        #expect(desktop.outputs.first?.ready == false)

        try host.swaymsg(["[title=\"wlroots - WL-1\"]", "move", "to", "workspace", "1"])
        try host.swaymsg(["workspace", "1"])
        let shown = try pump(desktop) { $0.ready.contains("WL-1") }
        #expect(shown.ready.contains("WL-1"))
        #expect(shown.visibilityChanged.contains("WL-1"))
        #expect(desktop.outputs.first?.visibility == .visible)
    }

    @Test func theCompositorGoingAwayIsLost() throws {
        let sway = try SwaySession()
        let desktop = try WaylandDesktop(displayName: sway.displayPath)
        try pump(desktop) { !$0.added.isEmpty }
        #expect(sway.crash())
        var error: DesktopError?
        _ = eventually(timeout: 60) {
            do {
                _ = try desktop.dispatch(waitSeconds: 0.25)
                try fill(desktop, "HEADLESS-1", (1, 1, 1))
                return false
            } catch let e as DesktopError {
                error = e
                return true
            } catch {
                return false
            }
        }
        #expect(error?.kind == .lost, "\(String(describing: error))")
    }

    @Test(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: TestPaths.executable("tiltfx")),
            "tiltfx is not built (its window is the fullscreen toplevel)"))
    func aFullscreenWindowMakesItsOutputFullscreen() throws {
        let sway = try SwaySession()
        let desktop = try WaylandDesktop(displayName: sway.displayPath)
        try pump(desktop) { !$0.added.isEmpty }
        #expect(desktop.outputs.first?.visibility == .visible)

        // tiltfx run's SDL2 window, on the session, without tiltd (then the pointer drives it).
        let environment = sway.clientEnvironment.map { "\($0.key)=\($0.value)" }
        let window = try BackgroundProcess(
            "/usr/bin/env",
            environment + [
                "SDL_VIDEODRIVER=wayland", "LIBGL_ALWAYS_SOFTWARE=1", "TILTD_SOCKET=\(sway.runtimeDirectory)/none",
                TestPaths.executable("tiltfx"), "run", "--preset", "foil", "--size", "200x150", "--seconds", "300",
            ])
        defer { window.kill() }
        let fullscreen = eventually(timeout: 90) {
            (try? sway.swaymsg(["[title=\".*\"]", "fullscreen", "enable"])) != nil
        }
        #expect(fullscreen, "no window to make fullscreen; tiltfx printed: \(window.stderr.suffix(1000))")
        let seen = try pump(desktop) { _ in desktop.outputs.first?.visibility == .fullscreen }
        #expect(desktop.outputs.first?.visibility == .fullscreen)
        #expect(seen.visibilityChanged.contains("HEADLESS-1"))

        try sway.swaymsg(["[title=\".*\"]", "fullscreen", "disable"])
        try pump(desktop) { _ in desktop.outputs.first?.visibility != .fullscreen }
        #expect(desktop.outputs.first?.visibility != .fullscreen)
    }
}

/// The Wayland wallpaper without a compositor.
struct WaylandDesktopErrorTests {
    @Test func noCompositorAtTheSocketIsNoDisplay() throws {
        let folder = TestPaths.temporaryDirectory("nowl")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect {
            _ = try WaylandDesktop(displayName: folder.path + "/wayland-9")
        } throws: { error in
            guard let error = error as? DesktopError else { return false }
            return error.kind == .noDisplay && error.message.contains("wayland-9")
        }
    }
}

/// Seconds on the monotonic clock, as `mono` times are.
func monotonicNow() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

/// The Wayland wallpaper on a compositor without layer-shell.
@Suite(
    .enabled(
        if: WestonSession.isAvailable, "needs weston (scripts/bootstrap installs it), whose shell lacks layer-shell"))
struct WaylandDesktopUnsupportedTests {
    @Test func aCompositorWithoutLayerShellIsUnsupportedAndSaysWhatToDo() throws {
        let weston = try WestonSession()
        #expect {
            _ = try WaylandDesktop(displayName: weston.displayPath)
        } throws: { error in
            guard let error = error as? DesktopError else { return false }
            return error.kind == .unsupported && error.message.contains("wlr-layer-shell")
                && error.message.contains("GNOME on Xorg")
        }
    }
}
