import Foundation
import Testing
import TiltTestKit

#if canImport(Glibc)
    import Glibc
#endif

/// `tiltfx wallpaper` under a real Wayland compositor: headless sway with virtual outputs, screenshots through grim.
@Suite(.enabled(if: SwaySession.isAvailable, "needs sway, swaymsg, grim and setpriv, as root (scripts/bootstrap)"))
struct WallpaperSwayTests {
    /// Starts `tiltfx wallpaper arguments…` on `sway`, with software GL and the repository's presets.
    private func wallpaper(
        _ arguments: [String], on sway: SwaySession, environment extra: [String: String] = [:]
    ) throws -> BackgroundProcess {
        var environment = sway.clientEnvironment.merging(extra) { $1 }
        environment["LIBGL_ALWAYS_SOFTWARE"] = "1"
        environment["TILT_PRESETS"] = ""
        environment["DISPLAY"] = ""
        environment["TILTD_SOCKET"] = sway.runtimeDirectory + "/no-tiltd.sock"
        return try BackgroundProcess(
            TestPaths.executable("tiltfx"),
            ["wallpaper", "--presets", TestPaths.repositoryRoot.appendingPathComponent("Presets").path] + arguments,
            environment: environment)
    }

    /// How far two screenshots of one output differ: the mean absolute difference of their channels, 0–255.
    private func difference(_ a: [UInt8], _ b: [UInt8]) -> Double {
        guard a.count == b.count, !a.isEmpty else { return 255 }
        var sum = 0
        for i in a.indices { sum += abs(Int(a[i]) - Int(b[i])) }
        return Double(sum) / Double(a.count)
    }

    /// Waits until `output` shows something other than `bare` (the compositor's own background), and returns it.
    private func waitForWallpaper(
        _ sway: SwaySession, output: String, bare: [UInt8], process: BackgroundProcess
    ) throws -> [UInt8] {
        var shot: [UInt8] = []
        let shown = try eventually(timeout: 120) {
            shot = try sway.screenshot(output: output).rgba
            return difference(shot, bare) > 2
        }
        try #require(shown, "no wallpaper on \(output) after 120 s; tiltfx printed:\n\(process.stderr.suffix(3000))")
        return shot
    }

    /// A fullscreen window on `sway`: tiltfx run's SDL2 window, opened and made fullscreen by sway (on the focused
    /// output).
    private func fullscreenWindow(on sway: SwaySession) throws -> BackgroundProcess {
        var environment = sway.clientEnvironment
        environment["SDL_VIDEODRIVER"] = "wayland"
        environment["LIBGL_ALWAYS_SOFTWARE"] = "1"
        let window = try BackgroundProcess(
            TestPaths.executable("tiltfx"),
            [
                "run", "--presets", TestPaths.repositoryRoot.appendingPathComponent("Presets").path, "--preset",
                "tilt-specular", "--size", "320x240", "--power-policy", "still",
            ], environment: environment)
        try #require(
            eventually(timeout: 120) { ((try? sway.swaymsg(["-t", "get_tree"])) ?? "").contains("tiltfx") },
            "the window did not open: \(window.stderr.suffix(2000))")
        try sway.swaymsg(["[title=\"tiltfx\"]", "fullscreen", "enable"])
        return window
    }

    @Test("two outputs both show it, the tilt moves it, and SIGTERM ends it with exit 0")
    func twoOutputsShowItAndTheTiltMovesIt() throws {
        let sway = try SwaySession()
        let second = try sway.createOutput()
        let outputs = try sway.outputs().filter(\.active).map(\.name)
        try #require(outputs.count == 2)
        let bare = try outputs.map { try sway.screenshot(output: $0).rgba }
        var shots: [String: [[UInt8]]] = [:]
        for tilt in ["0.35,0", "-0.35,0"] {
            let run = try wallpaper(["--preset", "tilt-specular", "--tilt", tilt], on: sway)
            for (name, background) in zip(outputs, bare) {
                shots[name, default: []].append(
                    try waitForWallpaper(sway, output: name, bare: background, process: run))
            }
            // Drawn once the surfaces came; nothing changes after (a held tilt, render-on-change).
            #expect(run.kill(SIGTERM, timeout: 30))
            #expect(run.process.terminationReason == .exit)
            #expect(run.process.terminationStatus == 0, "\(run.stderr.suffix(2000))")
            #expect(run.stderr.contains("output \(second)"), "\(run.stderr.suffix(2000))")
        }
        for name in outputs {
            let pair = try #require(shots[name])
            #expect(difference(pair[0], pair[1]) > 1, "tilt ±0.35 look the same on \(name)")
        }
    }

    @Test("an output created while it runs gets its wallpaper, and has it again after being disabled and enabled")
    func anOutputCreatedWhileItRunsGetsItsWallpaper() throws {
        let sway = try SwaySession()
        let first = try #require(try sway.outputs().first { $0.active }?.name)
        let bareFirst = try sway.screenshot(output: first).rgba
        let run = try wallpaper(["--preset", "tilt-specular", "--tilt", "0.2,0.1"], on: sway)
        _ = try waitForWallpaper(sway, output: first, bare: bareFirst, process: run)
        let added = try sway.createOutput()
        // A bare output shows the compositor's flat background colour: the first output's before the wallpaper came.
        let pixels = try sway.screenshot(output: added).rgba.count / 4
        let bare = (0..<pixels).flatMap { _ in bareFirst.prefix(4) }
        _ = try waitForWallpaper(sway, output: added, bare: bare, process: run)
        #expect(eventually(timeout: 60) { run.stderr.contains("output \(added) (") }, "\(run.stderr.suffix(2000))")
        // sway 1.7 keeps a disabled output's wl_output and layer surface (an unplugged one goes: TiltDesktopTests);
        // enabled again, it shows the wallpaper again.
        try sway.swaymsg(["output", added, "disable"])
        try sway.swaymsg(["output", added, "enable"])
        _ = try waitForWallpaper(sway, output: added, bare: bare, process: run)
        #expect(run.process.isRunning)
        #expect(run.kill(SIGTERM, timeout: 30) && run.process.terminationStatus == 0)
    }

    @Test("a fullscreen window over the only output pauses it: no frames, next to no CPU, motion unwatched")
    func aFullscreenWindowPausesTheOnlyOutput() throws {
        let sway = try SwaySession()
        let output = try #require(try sway.outputs().first { $0.active }?.name)
        // An animated preset: while the output can be seen, every frame differs and is drawn.
        let run = try wallpaper(["--preset", "shadertoy-plasma", "--tilt", "0,0", "--stats"], on: sway)
        try #require(
            eventually(timeout: 120) { run.stderr.contains("output \(output) (") }, "\(run.stderr.suffix(2000))")
        let drawing = try cpuSeconds(of: run.pid, over: 2)
        // A fullscreen window: tiltfx run's SDL2 window on the same compositor, made fullscreen by sway.
        let window = try fullscreenWindow(on: sway)
        defer { _ = window.kill(SIGTERM, timeout: 10) }
        try #require(
            eventually(timeout: 60) { run.stderr.contains("output \(output) paused") }, "\(run.stderr.suffix(3000))")
        let paused = try cpuSeconds(of: run.pid, over: 3)
        #expect(paused < 0.15, "the paused wallpaper used \(paused) s of CPU in 3 s (drawing: \(drawing) s in 2 s)")
        #expect(run.stderr.contains("power: hidden"), "\(run.stderr.suffix(2000))")
        // Back in view, it draws again at once.
        try sway.swaymsg(["[title=\"tiltfx\"]", "fullscreen", "disable"])
        #expect(
            eventually(timeout: 60) { run.stderr.contains("output \(output) resumed") }, "\(run.stderr.suffix(2000))")
        #expect(run.kill(SIGTERM, timeout: 30) && run.process.terminationStatus == 0)
        let statsLine = try #require(run.stdoutLines.first { $0.contains("\"class\":\"stats\"") })
        let stats = try #require(try JSONSerialization.jsonObject(with: Data(statsLine.utf8)) as? [String: Any])
        let hidden = (stats["modes"] as? [String: Any])?["hidden"] as? [String: Any]
        #expect((hidden?["seconds"] as? Double ?? 0) > 1, "\(statsLine)")
    }

    @Test("--scale 0.5 draws a quarter of the pixels and fills the whole output; auto says the scale it picks")
    func aScaledWallpaperFillsTheOutput() throws {
        let sway = try SwaySession()
        let output = try #require(try sway.outputs().first { $0.active }?.name)
        let bare = try sway.screenshot(output: output).rgba
        var shots: [[UInt8]] = []
        for scale in ["1", "0.5"] {
            let run = try wallpaper(["--preset", "tilt-specular", "--tilt", "0.3,0.1", "--scale", scale], on: sway)
            shots.append(try waitForWallpaper(sway, output: output, bare: bare, process: run))
            if scale != "1" {
                #expect(run.stderr.contains("drawn at scale \(scale)"), "\(run.stderr.suffix(2000))")
            }
            #expect(run.kill(SIGTERM, timeout: 30) && run.process.terminationStatus == 0)
        }
        // Stretched to the whole output, the half-scale picture is the full one a little softer: far nearer to it
        // than to the bare output (a quarter-size picture in a corner would not be).
        let full = shots[0]
        let half = shots[1]
        #expect(
            difference(full, half) < difference(full, bare) / 4,
            "full vs half \(difference(full, half)), full vs bare \(difference(full, bare))")
        // auto on an animated preset: the draw times measured, the scale it settles at said.
        let auto = try wallpaper(["--preset", "misty-glass", "--tilt", "0,0", "--scale", "auto"], on: sway)
        #expect(
            eventually(timeout: 120) { auto.stderr.contains("output \(output): render scale ") },
            "\(auto.stderr.suffix(2000))")
        #expect(auto.kill(SIGTERM, timeout: 30) && auto.process.terminationStatus == 0)
    }

    @Test("its buffers are XRGB8888, which a compositor without a GPU composites without converting")
    func itsBuffersAreEightBitXRGB() throws {
        // Mesa lists its 10-bit configs first; a wallpaper drawn in XRGB2101010 cost sway (pixman) ten times the
        // time of every frame (issue 40). WAYLAND_DEBUG shows the buffers libwayland makes for Mesa.
        let sway = try SwaySession()
        let output = try #require(try sway.outputs().first { $0.active }?.name)
        let bare = try sway.screenshot(output: output).rgba
        let run = try wallpaper(
            ["--preset", "tilt-specular", "--tilt", "0.3,0.1"], on: sway, environment: ["WAYLAND_DEBUG": "1"])
        _ = try waitForWallpaper(sway, output: output, bare: bare, process: run)
        #expect(run.kill(SIGTERM, timeout: 30))
        let formats = run.stderr.split(separator: "\n").filter {
            $0.contains("wl_shm_pool") && $0.contains("create_buffer(")
        }
        .map { $0.split(separator: ",").last.map { $0.trimmingCharacters(in: .init(charactersIn: " )")) } ?? "" }
        try #require(!formats.isEmpty, "no wl_shm buffer made: \(run.stderr.suffix(2000))")
        #expect(formats.allSatisfy { $0 == "1" }, "wl_shm formats (1: XRGB8888): \(formats)")
    }

    @Test("--pause-when any-fullscreen: a fullscreen window on one of two outputs pauses both, and both resume")
    func anyFullscreenPausesEveryOutput() throws {
        let sway = try SwaySession()
        _ = try sway.createOutput()
        let outputs = try sway.outputs().filter(\.active).map(\.name)
        try #require(outputs.count == 2)
        let run = try wallpaper(
            ["--preset", "shadertoy-plasma", "--tilt", "0,0", "--pause-when", "any-fullscreen"], on: sway)
        try #require(
            eventually(timeout: 120) { outputs.allSatisfy { run.stderr.contains("output \($0) (") } },
            "\(run.stderr.suffix(2000))")
        let window = try fullscreenWindow(on: sway)
        defer { _ = window.kill(SIGTERM, timeout: 10) }
        // The window is fullscreen on one output; the rule pauses the other too, and with both paused the run
        // stops drawing and watching motion.
        try #require(
            eventually(timeout: 60) {
                outputs.allSatisfy { run.stderr.contains("output \($0) paused") }
                    && run.stderr.contains("power: hidden")
            }, "\(run.stderr.suffix(3000))")
        #expect(run.stderr.contains("paused: an active window on another output is fullscreen (any-fullscreen)"))
        try sway.swaymsg(["[title=\"tiltfx\"]", "fullscreen", "disable"])
        #expect(
            eventually(timeout: 60) { outputs.allSatisfy { run.stderr.contains("output \($0) resumed") } },
            "\(run.stderr.suffix(2000))")
        #expect(run.kill(SIGTERM, timeout: 30) && run.process.terminationStatus == 0)
    }

    @Test("--gnome: a titled window per output, of its size, paused by control lines on stdin, stopped by its end")
    func gnomeModeOpensTitledWindowsTheShellControls() throws {
        let sway = try SwaySession()
        let output = try #require(try sway.outputs().first { $0.active })
        var environment = sway.clientEnvironment
        environment["LIBGL_ALWAYS_SOFTWARE"] = "1"
        environment["TILT_PRESETS"] = ""
        environment["DISPLAY"] = ""
        environment["TILTD_SOCKET"] = sway.runtimeDirectory + "/no-tiltd.sock"
        let run = try BackgroundProcess(
            TestPaths.executable("tiltfx"),
            [
                "wallpaper", "--gnome", "--presets", TestPaths.repositoryRoot.appendingPathComponent("Presets").path,
                "--preset", "shadertoy-plasma", "--tilt", "0,0", "--stats",
            ], environment: environment, standardInput: true)
        let title = "tiltfx-wallpaper \(output.name)"
        var window: [String: Any]?
        try #require(
            eventually(timeout: 120) {
                window = Self.node(titled: title, in: try? sway.swaymsg(["-t", "get_tree"]))
                return window != nil && run.stderr.contains("output \(output.name) (")
            }, "no window '\(title)': \(run.stderr.suffix(2000))")
        #expect(window?["app_id"] as? String == "tiltfx-wallpaper")
        let geometry = window?["geometry"] as? [String: Any]
        #expect(
            geometry?["width"] as? Int == output.width && geometry?["height"] as? Int == output.height, "\(window!)")
        // The shell says a fullscreen window covers the output: it stops drawing, and starts again when told.
        try run.send("output \(output.name) fullscreen\n")
        try #require(
            eventually(timeout: 60) { run.stderr.contains("output \(output.name) paused") },
            "\(run.stderr.suffix(3000))"
        )
        #expect(eventually(timeout: 30) { run.stdout.contains("\"mode\":\"hidden\"") }, "\(run.stdout.suffix(2000))")
        try run.send("nonsense\noutput \(output.name) visible\n")
        try #require(
            eventually(timeout: 60) { run.stderr.contains("output \(output.name) resumed") },
            "\(run.stderr.suffix(3000))")
        #expect(run.stderr.contains("control channel: unknown line 'nonsense'"), "\(run.stderr.suffix(3000))")
        // `screen hidden` (locked, blank) pauses every output whatever their own lines said.
        try run.send("screen hidden\n")
        try #require(
            eventually(timeout: 60) {
                run.stderr.components(separatedBy: "output \(output.name) paused").count == 3
            }, "\(run.stderr.suffix(3000))")
        try run.send("screen visible\n")
        try #require(
            eventually(timeout: 60) {
                run.stderr.components(separatedBy: "output \(output.name) resumed").count == 3
            }, "\(run.stderr.suffix(3000))")
        // The shell closing the channel is the clean stop.
        try run.closeInput()
        #expect(eventually(timeout: 60) { !run.process.isRunning }, "\(run.stderr.suffix(2000))")
        #expect(run.process.terminationReason == .exit && run.process.terminationStatus == 0)
        #expect(run.stderr.contains("the desktop shell closed the control channel: stopping"))
        #expect(run.stdoutLines.contains { $0.contains("\"class\":\"stats\"") })
    }

    /// The node titled `title` in sway's `get_tree` JSON.
    private static func node(titled title: String, in tree: String?) -> [String: Any]? {
        guard let tree, let root = try? JSONSerialization.jsonObject(with: Data(tree.utf8)) as? [String: Any] else {
            return nil
        }
        func find(_ node: [String: Any]) -> [String: Any]? {
            if node["name"] as? String == title { return node }
            for key in ["nodes", "floating_nodes"] {
                for child in node[key] as? [[String: Any]] ?? [] {
                    if let found = find(child) { return found }
                }
            }
            return nil
        }
        return find(root)
    }

    @Test("wallpaper --stats | head -1 ends by SIGPIPE once its reader leaves")
    func statsIntoAClosedPipeEndIt() throws {
        let sway = try SwaySession()
        var environment = sway.clientEnvironment
        environment["LIBGL_ALWAYS_SOFTWARE"] = "1"
        environment["DISPLAY"] = ""
        let r = try ClosingReader.run(
            TestPaths.executable("tiltfx"),
            [
                "wallpaper", "--presets", TestPaths.repositoryRoot.appendingPathComponent("Presets").path, "--tilt",
                "0.1,0", "--stats",
            ], lines: 1, environment: environment)
        #expect(r.lines.first?.contains("\"class\":\"mode\"") == true, "\(r.lines)")
        #expect(r.endedBySIGPIPE, "ended by \(r.ending)")
    }
}
