import Foundation
import Testing
import TiltImage
import TiltTestKit

#if canImport(Glibc)
    import Glibc
#endif

/// The tilt-wallpaper GNOME Shell extension (gnome/) in a real headless GNOME Shell 43: the wallpaper behind the
/// desktop, out of every window list, asleep under a fullscreen window, restarted when it dies, gone when disabled,
/// following wallpaper.conf and the desktop's own picture.
@Suite(
    .serialized,
    .enabled(
        if: GnomeShellSession.isAvailable, "needs gnome-shell, gjs, gdbus and python3-dbusmock (scripts/bootstrap)"))
struct WallpaperGnomeTests {
    /// The desktop below the top bar and the root session's notification: rows 160…700 of the 1280×720 monitor.
    private func desktop(_ shot: DecodedImage) -> [UInt8] {
        Array(shot.pixels[(160 * shot.width * 4)..<(700 * shot.width * 4)])
    }

    private func difference(_ a: [UInt8], _ b: [UInt8]) -> Double {
        guard a.count == b.count, !a.isEmpty else { return 255 }
        var sum = 0
        for i in a.indices { sum += abs(Int(a[i]) - Int(b[i])) }
        return Double(sum) / Double(a.count)
    }

    /// Waits until tiltfx has said `marker` `times` times (its output drawn) and the Shell shows it: two screenshots
    /// a moment apart agree.
    private func settledShot(_ gnome: GnomeShellSession, drawn marker: String, times: Int = 1) throws -> [UInt8] {
        try #require(
            eventually(timeout: 120) { gnome.log.components(separatedBy: marker).count > times },
            "tiltfx did not draw: \(gnome.log.suffix(3000))")
        var last = try desktop(gnome.screenshot())
        var settled = false
        for _ in 0..<30 {
            Thread.sleep(forTimeInterval: 0.5)
            let next = try desktop(gnome.screenshot())
            if difference(last, next) < 0.5 {
                settled = true
                break
            }
            last = next
        }
        try #require(settled, "the desktop kept changing")
        return last
    }

    /// The extension built by `gnome/build --shell SHELL` into a new temporary folder: (that folder, the extension's).
    private func buildExtension(shell: Int, in name: String) throws -> (folder: URL, built: String) {
        let folder = TestPaths.temporaryDirectory(name)
        let built = folder.appendingPathComponent("tilt-wallpaper@tilt").path
        let build = try ChildProcess.run(
            TestPaths.repositoryRoot.appendingPathComponent("gnome/build").path,
            ["--shell", "\(shell)", "--out", built],
            timeout: 60)
        try #require(build.status == 0, "\(build.stderr)")
        return (folder, built)
    }

    @Test("behind the empty desktop: two held tilts look different, and neither is GNOME's own background")
    func theWallpaperShowsAndTheTiltMovesIt() throws {
        let gnome = try GnomeShellSession(arguments: ["--preset", "tilt-specular", "--tilt", "0.35,0"])
        let marker = "output \(gnome.connector) (1280x720): tilt-specular"
        let first = try settledShot(gnome, drawn: marker)
        // Disabled, GNOME's own background shows; enabled with the other tilt, the wallpaper again.
        try gnome.setExtension(enabled: false)
        #expect(eventually(timeout: 60) { (try? gnome.tiltfxProcesses())?.isEmpty == true })
        let bare = try desktop(gnome.screenshot())
        try gnome.eval("imports.gi.GLib.setenv('TILT_WALLPAPER_ARGS', '--preset tilt-specular --tilt -0.35,0', true)")
        try gnome.setExtension(enabled: true)
        let second = try settledShot(gnome, drawn: marker, times: 2)
        #expect(difference(first, bare) > 3, "the wallpaper does not show: it looks like GNOME's own background")
        #expect(difference(second, bare) > 3)
        #expect(difference(first, second) > 1, "tilt ±0.35 look the same")
    }

    @Test("its window is in no window list: hidden among the window actors, not in alt-tab, skipped by the overview")
    func itsWindowIsInNoList() throws {
        let gnome = try GnomeShellSession(arguments: ["--tilt", "0,0"])
        try #require(
            eventually(timeout: 120) { gnome.log.contains("output \(gnome.connector) (1280x720)") },
            "\(gnome.log.suffix(3000))")
        var actors = ""
        try #require(
            eventually(timeout: 60) {
                actors =
                    (try? gnome.eval(
                        "return global.get_window_actors().map(a => ({title: a.meta_window.get_title(), "
                            + "visible: a.visible, skip: a.meta_window.is_skip_taskbar()}))")) ?? ""
                return actors.contains("tiltfx-wallpaper")
            }, "no tiltfx window actor: \(actors)")
        let list = try #require(try JSONSerialization.jsonObject(with: Data(actors.utf8)) as? [[String: Any]])
        let ours = list.filter { ($0["title"] as? String)?.hasPrefix("tiltfx-wallpaper ") == true }
        #expect(ours.count == 1)
        #expect(ours.first?["title"] as? String == "tiltfx-wallpaper \(gnome.connector)")
        #expect(ours.first?["visible"] as? Bool == false, "the renderer's own window shows: \(actors)")
        #expect(ours.first?["skip"] as? Bool == true, "the overview and dash list it: \(actors)")
        // Alt-tab lists what the Shell's switchers take (altTab.js getWindows: the tab list less skip-taskbar
        // windows), and Mutter's own keyboard switching the NORMAL tab list.
        let switcher = try gnome.eval("return imports.ui.altTab.getWindows(null).map(w => w.get_title())")
        #expect(!switcher.contains("tiltfx"), "alt-tab lists it: \(switcher)")
        let tabs = try gnome.eval(
            "const Meta = imports.gi.Meta; return global.display.get_tab_list(Meta.TabList.NORMAL, null).map(w => w.get_title())"
        )
        #expect(!tabs.contains("tiltfx"), "the NORMAL tab list holds it: \(tabs)")
        let apps = try gnome.eval(
            "return imports.gi.Shell.AppSystem.get_default().get_running().map(a => a.get_name())")
        #expect(!apps.lowercased().contains("tiltfx"), "the dash lists it as a running app: \(apps)")
    }

    @Test("a fullscreen window over the only monitor pauses it: hidden mode, under 1 % of a core for 5 s; it resumes")
    func aFullscreenWindowPausesIt() throws {
        // An animated preset: in view it draws every frame it can.
        let gnome = try GnomeShellSession(arguments: ["--preset", "shadertoy-plasma", "--tilt", "0,0", "--stats"])
        try #require(
            eventually(timeout: 120) { gnome.log.contains("output \(gnome.connector) (1280x720)") },
            "\(gnome.log.suffix(3000))")
        let pid = try #require(try gnome.tiltfxProcesses().first)
        let drawing = try cpuSeconds(of: pid, over: 2)
        #expect(drawing > 0.1, "in view, tiltfx used only \(drawing) s of CPU in 2 s")
        // What tiltfx says from now on (it may also have paused at start, before the Shell asked for frames).
        let beforeCover = gnome.log.utf8.count
        func saidSince(_ mark: Int) -> String { String(decoding: gnome.log.utf8.dropFirst(mark), as: UTF8.self) }
        let cover = try gnome.client(
            "/usr/bin/gjs",
            [
                "-c",
                "imports.gi.versions.Gtk = '4.0'; const {Gtk, GLib} = imports.gi; Gtk.init(); "
                    + "const w = new Gtk.Window({title: 'cover'}); w.fullscreen(); w.present(); "
                    + "new GLib.MainLoop(null, false).run();",
            ])
        defer { _ = cover.kill(SIGKILL, timeout: 10) }
        try #require(
            eventually(timeout: 120) {
                let said = saidSince(beforeCover)
                return said.contains("output \(gnome.connector) paused: its active window is fullscreen")
                    && said.contains("\"mode\":\"hidden\"")
            }, "not paused: \(gnome.log.suffix(3000))\n\(cover.stderr.suffix(1000))")
        let paused = try cpuSeconds(of: pid, over: 5)
        #expect(paused < 0.05, "paused, tiltfx used \(paused) s of CPU in 5 s (drawing: \(drawing) s in 2 s)")
        // Once it knows the window covers the monitor, it stays asleep. (Before that, while the window is mapped and
        // made fullscreen, the Shell may stop asking for frames and ask again: a pause and a resume of their own.)
        let covered = saidSince(beforeCover)
        let known = try #require(covered.firstRange(of: "paused: its active window is fullscreen"))
        #expect(!covered[known.upperBound...].contains("resumed"), "it woke while covered: \(covered)")
        // The window goes as its client does.
        let beforeUncover = gnome.log.utf8.count
        #expect(cover.kill(SIGKILL, timeout: 30))
        #expect(
            eventually(timeout: 60) { saidSince(beforeUncover).contains("output \(gnome.connector) resumed") },
            "\(gnome.log.suffix(2000))")
        #expect(try gnome.tiltfxProcesses() == [pid], "the renderer was restarted instead of resumed")
    }

    @Test("tiltfx killed is started again, said once; disabling the extension leaves no tiltfx behind")
    func killedIsRestartedAndDisableLeavesNothing() throws {
        let gnome = try GnomeShellSession(arguments: ["--tilt", "0,0"])
        let drawn = "output \(gnome.connector) (1280x720)"
        try #require(eventually(timeout: 120) { gnome.log.contains(drawn) }, "\(gnome.log.suffix(3000))")
        var pids = try gnome.tiltfxProcesses()
        try #require(pids.count == 1, "tiltfx processes: \(pids)")
        let first = pids[0]
        kill(first, SIGKILL)
        try #require(
            eventually(timeout: 60) {
                pids = (try? gnome.tiltfxProcesses()) ?? []
                return pids.count == 1 && pids[0] != first
            }, "not restarted: \(gnome.log.suffix(3000))")
        #expect(
            gnome.log.contains("tilt-wallpaper: tiltfx wallpaper ended (killed by signal 9)"),
            "\(gnome.log.suffix(2000))")
        #expect(gnome.log.contains("restarting it in 1 s"))
        try #require(
            eventually(timeout: 120) {
                gnome.log.components(separatedBy: drawn).count == 3
            }, "the restarted tiltfx did not draw: \(gnome.log.suffix(2000))")
        try gnome.setExtension(enabled: false)
        #expect(eventually(timeout: 30) { (try? gnome.tiltfxProcesses())?.isEmpty == true }, "tiltfx still runs")
        // It stopped because its input closed, cleanly.
        #expect(
            gnome.log.contains("the desktop shell closed the control channel: stopping"), "\(gnome.log.suffix(2000))")
        #expect(kill(pids[0], 0) != 0)
    }

    @Test("the preferences' writer rewrites wallpaper.conf, and the running wallpaper follows it")
    func thePreferencesWriteTheConfigAndTheWallpaperFollows() throws {
        // Another monitor's section, which the writer keeps as it was.
        let grey = DecodedImage(width: 8, height: 8, pixels: [UInt8](repeating: 128, count: 8 * 8 * 4))
        let picture = try TestPictures.file(try TestPictures.png(grey), name: "other.png")
        let gnome = try GnomeShellSession(
            arguments: ["--tilt", "0,0"], config: "# mine\nfps = 20\n[output Other-1]\nimage = \(picture)\n")
        try #require(
            eventually(timeout: 120) { gnome.log.contains("output \(gnome.connector) (1280x720): depth") },
            "\(gnome.log.suffix(3000))")
        let before = try #require(try gnome.tiltfxProcesses().first)
        // The preferences' own code (gnome/src/prefs.js and conf.js) writes the choice, under plain gjs.
        let (folder, built) = try buildExtension(shell: 43, in: "prefs")
        let prefs = try String(contentsOfFile: built + "/prefs.js", encoding: .utf8)
        let script = folder.appendingPathComponent("write.js").path
        try
            (prefs.replacingOccurrences(
                of: "const {Adw, Gdk, GLib, Gtk} = imports.gi;", with: "const GLib = imports.gi.GLib;")
            + "\nprefsWrite({preset: 'foil', lock_screen: 'true'}, {'Meta-0': 'holo-card'});\n")
            .write(toFile: script, atomically: true, encoding: .utf8)
        var environment = gnome.environment
        environment["PATH"] = "/usr/bin:/bin"
        let write = try ChildProcess.run(
            "/usr/bin/env", environment.map { "\($0.key)=\($0.value)" } + ["gjs", script], timeout: 60)
        try #require(write.status == 0, "\(write.stderr)")
        let conf = try String(contentsOfFile: gnome.folder + "/home/.config/tilt/wallpaper.conf", encoding: .utf8)
        #expect(
            conf
                == "# mine\nfps = 20\npreset = foil\nlock_screen = true\n[output Other-1]\nimage = \(picture)\n\n"
                + "[output Meta-0]\npreset = holo-card\n")
        // The extension sees the file change and starts tiltfx again, which reads it.
        try #require(
            eventually(timeout: 120) { gnome.log.contains("output \(gnome.connector) (1280x720): holo-card") },
            "the wallpaper did not follow: \(gnome.log.suffix(3000))")
        #expect(gnome.log.contains("tilt-wallpaper: wallpaper.conf changed: restarting tiltfx"))
        let after = try gnome.tiltfxProcesses()
        #expect(after.count == 1 && after.first != before)
    }

    @Test("with no options the wallpaper is the desktop's own picture, shifted by the tilt")
    func theDefaultSceneIsTheDesktopsPicture() throws {
        // A picture GNOME does not ship: a red field with a blue band across its middle third.
        let (w, h) = (640, 360)
        var pixels: [UInt8] = []
        for _ in 0..<h {
            for x in 0..<w { pixels += (x > w / 3 && x < 2 * w / 3) ? [30, 40, 220, 255] : [210, 40, 30, 255] }
        }
        let path = try TestPictures.file(
            try TestPictures.png(DecodedImage(width: w, height: h, pixels: pixels)), name: "mine.png")
        // Set before the Shell starts, as a user's own choice would be.
        let gnome = try GnomeShellSession(
            arguments: ["--tilt", "0,0.45"],
            keyfile: "[org/gnome/desktop/background]\npicture-uri='file://\(path)'\npicture-options='zoom'\n")
        let marker = "the desktop's picture, with depth: \(path)"
        let drawn = "output \(gnome.connector) (1280x720): depth"
        let tilted = try settledShot(gnome, drawn: drawn)
        #expect(gnome.log.contains(marker), "\(gnome.log.suffix(3000))")
        // The picture fills the desktop: red at the sides, blue in the middle.
        let width = 1280
        func pixel(_ rows: [UInt8], x: Int, y: Int) -> [Int] {
            let p = (y * width + x) * 4
            return [Int(rows[p]), Int(rows[p + 1]), Int(rows[p + 2])]
        }
        let side = pixel(tilted, x: 100, y: 270)
        let middle = pixel(tilted, x: 640, y: 270)
        #expect(side[0] > 150 && side[2] < 90, "the side is \(side), not the picture's red")
        #expect(middle[2] > 150 && middle[0] < 90, "the middle is \(middle), not the picture's blue")
        // The other tilt shifts it: the band's edges move.
        try gnome.setExtension(enabled: false)
        #expect(eventually(timeout: 60) { (try? gnome.tiltfxProcesses())?.isEmpty == true })
        try gnome.eval("imports.gi.GLib.setenv('TILT_WALLPAPER_ARGS', '--tilt 0,-0.45', true)")
        try gnome.setExtension(enabled: true)
        let other = try settledShot(gnome, drawn: drawn, times: 2)
        func bandStart(_ rows: [UInt8]) -> Int {
            (0..<width).first { pixel(rows, x: $0, y: 270)[2] > 125 } ?? -1
        }
        #expect(bandStart(tilted) != bandStart(other), "tilt ±0.45 put the band at \(bandStart(tilted)) both times")
    }

    @Test("the GNOME 45+ build loads as ES modules under gjs -m, GNOME's own modules stubbed")
    func theModernBuildLoads() throws {
        let (_, built) = try buildExtension(shell: 45, in: "gnome45")
        let stubs = TestPaths.repositoryRoot.appendingPathComponent("Tests/Fixtures/gnome/stubs45").path
        let loader = TestPaths.repositoryRoot.appendingPathComponent("Tests/Fixtures/gnome/load45.js").path
        let run = try ChildProcess.run(
            "/usr/bin/env",
            ["GI_TYPELIB_PATH=/usr/lib/x86_64-linux-gnu/mutter-11", "gjs", "-m", loader, built, stubs], timeout: 60)
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        #expect(run.stdout.contains("extension: TiltWallpaperExtension enable disable"), "\(run.stdout)")
        #expect(run.stdout.contains("prefs: TiltWallpaperPreferences fillPreferencesWindow"), "\(run.stdout)")
        let metadata = try String(contentsOfFile: built + "/metadata.json", encoding: .utf8)
        #expect(metadata.contains("\"45\"") && !metadata.contains("\"43\""))
    }
}
