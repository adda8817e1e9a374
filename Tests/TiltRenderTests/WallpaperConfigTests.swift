import Foundation
import Testing
import TiltCore
import TiltDesktop
import TiltGL
import TiltRender
import TiltTestKit

/// `tiltfx wallpaper --config`: the file's keys, its `[output NAME]` sections, and its mistakes.
struct WallpaperConfigTests {
    private func parse(_ text: String, path: String = "/home/u/.config/tilt/wallpaper.conf") throws
        -> WallpaperConfiguration
    {
        try WallpaperConfiguration.parse(ConfigFile.parse(text, path: path, keysPerSection: true), home: "/home/u")
    }

    @Test func theTopIsEveryOutputsAndSectionsNameOutputs() throws {
        let config = try parse(
            """
            preset = parallax
            image = ~/Pictures/hills.jpg
            fit = cover
            fps = 30
            pause_when = covered
            lock_screen = true

            [output eDP-1]
            preset = holo-card
            image = card.png   # beside the file
            fit = contain
            [output HDMI-A-1]
            image = /srv/pics/wide.png
            """)
        #expect(config.all == .init(preset: "parallax", image: "/home/u/Pictures/hills.jpg", fit: .cover))
        #expect(config.fps == 30)
        #expect(config.pauseWhen == .covered)
        #expect(config.lockScreen == true)
        #expect(
            config.outputs["eDP-1"]
                == .init(preset: "holo-card", image: "/home/u/.config/tilt/card.png", fit: .contain))
        #expect(config.outputs["HDMI-A-1"] == .init(image: "/srv/pics/wide.png"))
        // A section's unset fields come from the scene before it.
        #expect(
            config.outputs["HDMI-A-1"]!.over(config.all)
                == .init(preset: "parallax", image: "/srv/pics/wide.png", fit: .cover))
    }

    @Test func mistakesNameTheLineTheKeyAndWhatItTakes() throws {
        let cases: [(String, ConfigError.Kind, String)] = [
            ("fit = zoom\n", .badValue, "w.conf:1: key 'fit': expected one of contain, cover, stretch, got 'zoom'"),
            ("fps = 0\n", .badValue, "w.conf:1: key 'fps': expected frames per second from 1 to 1000, got '0'"),
            (
                "pause_when = sometimes\n", .badValue,
                "w.conf:1: key 'pause_when': expected fullscreen, covered, any-fullscreen or never, got 'sometimes'"
            ),
            (
                "[output A]\nfps = 30\n", .unknownKey,
                "w.conf:2: key 'fps': fps applies to every output: put it before the first [output] section"
            ),
            (
                "speed = 2\n", .unknownKey,
                "w.conf:1: key 'speed': not a wallpaper setting; the keys here are preset, image, fit, scale, "
                    + "battery, power_saver, battery_fps, fps, pause_when, lock_screen"
            ),
            ("lock_screen = yes\n", .badValue, "w.conf:1: key 'lock_screen': expected true or false, got 'yes'"),
            (
                "[output A]\nlock_screen = true\n", .unknownKey,
                "w.conf:2: key 'lock_screen': lock_screen applies to every output: put it before the first [output] "
                    + "section"
            ),
            (
                "[monitor A]\npreset = foil\n", .syntax,
                "w.conf:2: key 'preset': the section [monitor A] is not [output NAME]; name an output as "
                    + "`swaymsg -t get_outputs` or `xrandr --listmonitors` shows it, e.g. [output eDP-1]"
            ),
        ]
        for (text, kind, message) in cases {
            let error = #expect(throws: ConfigError.self) { try parse(text, path: "w.conf") }
            #expect(error?.kind == kind)
            #expect(error?.description == message)
        }
    }

    @Test func pauseRules() {
        #expect(!WallpaperPause.fullscreen.pauses(.visible))
        #expect(WallpaperPause.fullscreen.pauses(.fullscreen))
        #expect(!WallpaperPause.fullscreen.pauses(.covered))
        #expect(WallpaperPause.covered.pauses(.covered) && WallpaperPause.covered.pauses(.fullscreen))
        #expect(!WallpaperPause.never.pauses(.fullscreen) && !WallpaperPause.never.pauses(.covered))
        // A surface the compositor stopped asking frames for draws nothing under any rule.
        #expect(WallpaperPause.allCases.allSatisfy { $0.pauses(.notDrawn) })
        // An output the desktop shell says nobody sees (the GNOME extension's `hidden`) too.
        #expect(WallpaperPause.allCases.allSatisfy { $0.pauses(.hidden) })
        // any-fullscreen: one output's fullscreen window pauses every output; covered alone pauses none.
        let left = DesktopOutput(name: "A", width: 8, height: 8, visibility: .fullscreen)
        let right = DesktopOutput(name: "B", width: 8, height: 8)
        #expect(WallpaperPause.anyFullscreen.pauses(right, among: [left, right]))
        #expect(!WallpaperPause.fullscreen.pauses(right, among: [left, right]))
        #expect(WallpaperPause.fullscreen.pauses(left, among: [left, right]))
        var coveredLeft = left
        coveredLeft.visibility = .covered
        #expect(!WallpaperPause.anyFullscreen.pauses(right, among: [coveredLeft, right]))
        #expect(!WallpaperPause.anyFullscreen.pauses(coveredLeft, among: [coveredLeft, right]))
        #expect(WallpaperPause(rawValue: "any-fullscreen") == .anyFullscreen)
    }

    @Test func theShippedExampleReads() throws {
        let path = TestPaths.repositoryRoot.appendingPathComponent("dist/examples/wallpaper.conf").path
        let config = try WallpaperConfiguration.read(path: path, home: "/home/u")
        #expect(config.all.preset == "depth")
        #expect(config.lockScreen == nil)
        #expect(config.outputs.isEmpty)
    }
}
