import Foundation
import Testing
import TiltCore
import TiltEffects
import TiltGL
import TiltRender
import TiltTestKit

/// `tiltfx wallpaper --scale` and the power keys: the values taken, `auto`'s choice from draw times, and the policy
/// each output follows.
struct WallpaperScaleTests {
    private func parse(_ text: String) throws -> WallpaperConfiguration {
        try WallpaperConfiguration.parse(
            ConfigFile.parse(text, path: "w.conf", keysPerSection: true), home: "/home/u")
    }

    private func repositoryPreset(_ name: String) throws -> Preset {
        try Preset.load(directory: TestPaths.repositoryRoot.appendingPathComponent("Presets/\(name)").path)
    }

    @Test func scalesAreAFractionFromAQuarterToOneOrAuto() {
        #expect(RenderScale(text: "0.5") == .fixed(0.5))
        #expect(RenderScale(text: "1") == .full)
        #expect(RenderScale(text: "0.25") == .fixed(0.25))
        #expect(RenderScale(text: "auto") == .auto)
        for bad in ["0.2", "1.5", "0", "-1", "half", ""] { #expect(RenderScale(text: bad) == nil, "\(bad)") }
        #expect(RenderScale.fixed(0.5).text == "0.5" && RenderScale.full.text == "1" && RenderScale.auto.text == "auto")
    }

    @Test func theDrawnSizeIsTheSurfacesScaledAndRounded() {
        #expect(ScaledDrawing.size(width: 1920, height: 1080, scale: 0.5) == SIMD2(960, 540))
        #expect(ScaledDrawing.size(width: 1920, height: 1080, scale: 1) == SIMD2(1920, 1080))
        #expect(ScaledDrawing.size(width: 1366, height: 768, scale: 0.33) == SIMD2(451, 253))
        #expect(ScaledDrawing.size(width: 2, height: 1, scale: 0.25) == SIMD2(1, 1), "at least a pixel")
    }

    @Test func aPresetsMinScaleRaisesAFixedScale() throws {
        var preset = try repositoryPreset("tilt-specular")
        #expect(preset.minScale == 0.25, "no minScale: a quarter")
        #expect(RenderScale.fixed(0.3).initial(for: preset) == 0.3)
        preset.minScale = 0.5
        #expect(RenderScale.fixed(0.3).initial(for: preset) == 0.5)
        #expect(RenderScale.auto.initial(for: preset) == 1, "auto starts at every pixel and measures")
    }

    /// Feeds `auto` frames whose cost is `fullSize` seconds at scale 1, in proportion to the pixels drawn, until the
    /// scale stops changing; returns each scale it picked.
    private func settle(_ auto: inout AutoScale, fullSize: Double, frames: Int = 60) -> [Double] {
        var picked: [Double] = []
        for _ in 0..<frames {
            if let next = auto.add(seconds: fullSize * auto.scale * auto.scale) { picked.append(next) }
        }
        return picked
    }

    @Test func autoPicksTheLargestScaleWhoseFrameFitsAThirdOfThePeriod() {
        // 30 ms at full size, 60 Hz: a budget of 5.6 ms fits sqrt(5.6 / 30) = 0.43 of each side, 0.40 in steps of 0.05.
        var auto = AutoScale(floor: 0.25, framePeriod: 1.0 / 60)
        #expect(abs(auto.budget - 1.0 / 180) < 1e-12)
        #expect(settle(&auto, fullSize: 0.030) == [0.4], "one change, then it holds")
        #expect(0.030 * auto.scale * auto.scale <= auto.budget)
        // The same frames at 30 fps have twice the budget.
        var slower = AutoScale(floor: 0.25, framePeriod: 1.0 / 30)
        #expect(settle(&slower, fullSize: 0.030) == [0.6])
        // A cheap preset keeps every pixel: nothing to change.
        var cheap = AutoScale(floor: 0.25, framePeriod: 1.0 / 60)
        #expect(settle(&cheap, fullSize: 0.004).isEmpty && cheap.scale == 1)
    }

    @Test func autoNeverGoesBelowThePresetsFloorAndGoesBackUpOnlyByAClearMargin() {
        var auto = AutoScale(floor: 0.5, framePeriod: 1.0 / 60)
        #expect(settle(&auto, fullSize: 0.200) == [0.5], "a slow GL: the floor, over budget as it is")
        // The machine gets faster: up to what fits.
        #expect(settle(&auto, fullSize: 0.010) == [0.7])
        // A little faster still: 0.74 would fit, not 0.1 more than 0.7, so it stays.
        #expect(settle(&auto, fullSize: 0.0098).isEmpty && auto.scale == 0.7)
        // A little slower: down at once.
        #expect(settle(&auto, fullSize: 0.0125) == [0.65])
    }

    @Test func oneSlowFrameDoesNotDecide() {
        var auto = AutoScale(floor: 0.25, framePeriod: 1.0 / 60)
        var picked: [Double] = []
        for i in 0..<(AutoScale.window * 4) {
            // A 100 ms hitch once a window, between 3 ms frames.
            if let next = auto.add(seconds: i % AutoScale.window == 2 ? 0.100 : 0.003) { picked.append(next) }
        }
        #expect(picked.isEmpty && auto.scale == 1, "\(picked)")
        #expect(auto.add(seconds: .nan) == nil && auto.add(seconds: -1) == nil)
    }

    @Test func theConfigTakesScaleAndPowerKeysAtTheTopAndPerOutput() throws {
        let config = try parse(
            """
            scale = 0.5
            battery = still
            battery_fps = 12
            [output HDMI-A-1]
            scale = auto
            battery = full
            power_saver = capped
            """)
        #expect(config.all.scale == .fixed(0.5) && config.all.battery == .still && config.all.batteryFPS == 12)
        let hdmi = try #require(config.outputs["HDMI-A-1"]).over(config.all)
        #expect(hdmi.scale == .auto && hdmi.battery == .full && hdmi.powerSaver == .capped && hdmi.batteryFPS == 12)
        let cases: [(String, String)] = [
            ("scale = 2\n", "w.conf:1: key 'scale': expected a fraction from 0.25 to 1, or auto, got '2'"),
            ("battery = hidden\n", "w.conf:1: key 'battery': expected full, capped or still, got 'hidden'"),
            ("power_saver = off\n", "w.conf:1: key 'power_saver': expected full, capped or still, got 'off'"),
            ("battery_fps = 0\n", "w.conf:1: key 'battery_fps': expected frames per second from 1 to 240, got '0'"),
        ]
        for (text, message) in cases {
            let error = #expect(throws: ConfigError.self) { try parse(text) }
            #expect(error?.description == message)
        }
    }

    @Test func eachOutputsPolicyComesFromItsPresetAndKeysAndTheRunFollowsTheMostDemanding() throws {
        let still = try repositoryPreset("tilt-specular")
        let animated = try repositoryPreset("shadertoy-plasma")
        // The automatic policy caps an animated preset lower on battery: it draws every frame, moving or not.
        #expect(PowerPolicy.automatic(for: still) == .automatic)
        #expect(PowerPolicy.automatic(for: animated).cappedFrameRate == PowerPolicy.animatedCappedFrameRate)
        #expect(PowerPolicy.animatedCappedFrameRate < PowerPolicy.automatic.cappedFrameRate)
        var scene = WallpaperConfiguration.Scene()
        scene.battery = .still
        scene.powerSaver = .capped
        scene.batteryFPS = 10
        let own = scene.policy(for: animated, fixed: nil)
        #expect(own.battery == .still && own.lowPower == .capped && own.cappedFrameRate == 10 && own.mains == .full)
        #expect(scene.policy(for: animated, fixed: .fixed(.full)) == .fixed(.full), "--power-policy wins")
        let onBattery = PowerState(onBattery: true, capacity: 60)
        #expect(own.mode(power: onBattery) == .still)
        // One output still on battery, another capped at 15: the loop draws capped at 15, the first holds back.
        let combined = PowerPolicy.mostDemanding([own, PowerPolicy.automatic(for: animated)])
        #expect(combined.mode(power: onBattery) == .capped && combined.cappedFrameRate == 15)
        #expect(combined.mode(power: PowerState(onBattery: false, profile: "power-saver")) == .capped)
        #expect(PowerPolicy.mostDemanding([]) == .automatic)
        #expect(PowerPolicy.mostDemanding([.fixed(.still)]) == .fixed(.still))
    }

    @Test func aPresetsMinScaleIsReadAndChecked() throws {
        func load(_ extra: String) throws -> Preset {
            let dir = TestPaths.temporaryDirectory("minscale")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            try "vec4 c(vec2 p, vec4 color) { return color; }".write(
                to: dir.appendingPathComponent("c.glsl"), atomically: true, encoding: .utf8)
            let json = #"{"effects":[{"kind":"color","function":"c","file":"c.glsl"}]\#(extra)}"#
            try json.write(to: dir.appendingPathComponent("preset.json"), atomically: true, encoding: .utf8)
            return try Preset.load(directory: dir.path)
        }
        #expect(try load(#","minScale":0.6"#).minScale == 0.6)
        #expect(try load("").minScale == Preset.scaleRange.lowerBound)
        let error = #expect(throws: PresetError.self) { try load(#","minScale":0.1"#) }
        #expect("\(error.map { "\($0)" } ?? "")".contains("minScale"), "\(String(describing: error))")
    }
}
