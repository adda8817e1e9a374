import FoundationEssentials
import TiltCore
import TiltDesktop
import TiltEffects
import TiltGL

/// When the wallpaper stops drawing an output (`--pause-when`, `pause_when`).
package enum WallpaperPause: String, Sendable, Hashable, CaseIterable {
    /// When the active window on the output is fullscreen (a film, a game).
    case fullscreen
    /// When any window on the output is fullscreen or maximized, active or not.
    case covered
    /// Every output, when any output's active window is fullscreen: a game on one monitor pauses them all.
    case anyFullscreen = "any-fullscreen"
    /// Never for windows; only when the compositor stops asking for frames.
    case never

    /// Whether an output that looks like `visibility` is paused under this rule, whatever the other outputs show.
    package func pauses(_ visibility: DesktopOutput.Visibility) -> Bool {
        switch visibility {
        case .visible: false
        case .notDrawn, .hidden: true
        case .fullscreen: self != .never
        case .covered: self == .covered
        }
    }

    /// Whether `output` is paused under this rule, among every output of the desktop (`outputs`).
    package func pauses(_ output: DesktopOutput, among outputs: [DesktopOutput]) -> Bool {
        if pauses(output.visibility) { return true }
        return self == .anyFullscreen && outputs.contains { $0.visibility == .fullscreen }
    }

    /// The values as `--pause-when` and `pause_when` take them: `fullscreen, covered, any-fullscreen or never`.
    static var choices: String {
        let names = allCases.map(\.rawValue)
        return names.dropLast().joined(separator: ", ") + " or " + names.last!
    }
}

/// `tiltfx wallpaper --config FILE`: what the wallpaper shows, in the house config format (``ConfigFile``).
///
/// ```
/// preset = parallax          # every output, unless its section says otherwise
/// image = ~/Pictures/hills.jpg
/// fit = cover
/// scale = 0.5                # draw half the pixels each way (a quarter of them), stretched; or auto
/// battery = capped           # on battery: full, capped (battery_fps) or still (one frame)
/// battery_fps = 15
/// power_saver = still        # a power-saver profile or a low battery
/// fps = 30
/// pause_when = fullscreen
/// lock_screen = false        # the GNOME Shell extension's: keep the wallpaper on the lock screen
///
/// [output eDP-1]
/// preset = holo-card
/// image = card.png           # relative to this file's folder
/// ```
///
/// Keys before the first section apply to every output; an `[output NAME]` section sets one output's `preset`,
/// `image`, `fit`, `scale` and power keys. Command-line options override the keys before the first section, never a section's.
package struct WallpaperConfiguration: Sendable, Hashable {
    /// What one output shows; an unset field falls back to the one before it (section → options → file top →
    /// built-in default).
    package struct Scene: Sendable, Hashable {
        /// A preset's name, folder or Shadertoy export.
        package var preset: String?
        /// A picture (PNG, JPEG) or a video file, already resolved against the config file's folder and `~`.
        package var image: String?
        /// How the picture fills the output.
        package var fit: PictureContent.Fit?
        /// How many of the output's pixels are drawn (`scale`).
        package var scale: RenderScale?
        /// The mode on battery (`battery`): full, capped or still.
        package var battery: PowerMode?
        /// The mode when the system asks to save power (`power_saver`: a power-saver profile, a low battery).
        package var powerSaver: PowerMode?
        /// Frames a second when capped (`battery_fps`).
        package var batteryFPS: Double?

        /// A scene.
        package init(
            preset: String? = nil, image: String? = nil, fit: PictureContent.Fit? = nil, scale: RenderScale? = nil
        ) {
            self.preset = preset
            self.image = image
            self.fit = fit
            self.scale = scale
        }

        /// This scene's fields, each taken from `fallback` where this one has none.
        package func over(_ fallback: Scene) -> Scene {
            var scene = Scene(
                preset: preset ?? fallback.preset, image: image ?? fallback.image, fit: fit ?? fallback.fit,
                scale: scale ?? fallback.scale)
            scene.battery = battery ?? fallback.battery
            scene.powerSaver = powerSaver ?? fallback.powerSaver
            scene.batteryFPS = batteryFPS ?? fallback.batteryFPS
            return scene
        }

        /// The power policy of an output showing `preset` in this scene: `fixed` (`--power-policy` other than
        /// auto) when given; else the preset's own (``PowerPolicy/automatic(for:)``) with this scene's `battery`,
        /// `power_saver` and `battery_fps` over it.
        package func policy(for preset: Preset, fixed: PowerPolicy?) -> PowerPolicy {
            if let fixed { return fixed }
            var policy = PowerPolicy.automatic(for: preset)
            if let battery { policy.battery = battery }
            if let powerSaver { policy.lowPower = powerSaver }
            if let batteryFPS { policy.cappedFrameRate = batteryFPS }
            return policy
        }
    }

    /// The file, for messages.
    package var path: String
    /// The keys before the first section: every output's scene.
    package var all = Scene()
    /// Each `[output NAME]` section's scene, by output name.
    package var outputs: [String: Scene] = [:]
    /// `fps`: the frame rate cap.
    package var fps: Double?
    /// `pause_when`.
    package var pauseWhen: WallpaperPause?
    /// `lock_screen`: whether the GNOME Shell extension keeps the wallpaper on the lock screen (docs/gnome.md); read
    /// by the extension, only checked here.
    package var lockScreen: Bool?

    /// An empty configuration read from `path`.
    package init(path: String) {
        self.path = path
    }

    /// The keys a scene takes.
    static let sceneKeys = ["preset", "image", "fit", "scale", "battery", "power_saver", "battery_fps"]
    /// The keys only the top of the file takes.
    static let topKeys = ["fps", "pause_when", "lock_screen"]

    /// Reads the file at `path`.
    /// - Parameter home: `$HOME`, for values that start with `~/`.
    /// - Throws: ``ConfigError`` naming the line and key of the first problem, and what it takes.
    package static func read(path: String, home: String?) throws(ConfigError) -> WallpaperConfiguration {
        try parse(ConfigFile.read(path: path, keysPerSection: true), home: home)
    }

    /// Reads parsed `file`'s entries.
    package static func parse(_ file: ConfigFile, home: String?) throws(ConfigError) -> WallpaperConfiguration {
        var config = WallpaperConfiguration(path: file.path)
        let folder = PathText.folder(of: file.path)
        for entry in file.entries {
            func problem(_ kind: ConfigError.Kind, _ reason: String) -> ConfigError {
                ConfigError(kind, path: file.path, line: entry.line, key: entry.key, reason: reason)
            }
            var output: String?
            if let section = entry.section {
                let words = section.split(separator: " ", maxSplits: 1).map(String.init)
                guard words.count == 2, words[0] == "output", !words[1].trimmingWhitespace.isEmpty else {
                    throw problem(
                        .syntax,
                        "the section [\(section)] is not [output NAME]; name an output as `swaymsg -t get_outputs` "
                            + "or `xrandr --listmonitors` shows it, e.g. [output eDP-1]")
                }
                output = words[1].trimmingWhitespace
            }
            var scene = output.map { config.outputs[$0] ?? Scene() } ?? config.all
            switch entry.key {
            case "preset":
                guard !entry.value.isEmpty else { throw problem(.badValue, "expected a preset's name, got ''") }
                scene.preset = entry.value
            case "image":
                guard !entry.value.isEmpty else { throw problem(.badValue, "expected a picture's path, got ''") }
                scene.image = resolve(entry.value, folder: folder, home: home)
            case "fit":
                guard let fit = PictureContent.Fit(rawValue: entry.value) else {
                    let fits = PictureContent.Fit.allCases.map(\.rawValue).joined(separator: ", ")
                    throw problem(.badValue, "expected one of \(fits), got '\(entry.value)'")
                }
                scene.fit = fit
            case "scale":
                guard let scale = RenderScale(text: entry.value) else {
                    throw problem(.badValue, "expected \(RenderScale.choices), got '\(entry.value)'")
                }
                scene.scale = scale
            case "battery", "power_saver":
                guard let mode = PowerMode(rawValue: entry.value), mode != .hidden else {
                    throw problem(.badValue, "expected full, capped or still, got '\(entry.value)'")
                }
                if entry.key == "battery" { scene.battery = mode } else { scene.powerSaver = mode }
            case "battery_fps":
                guard let fps = Double(entry.value), fps >= 1, fps <= 240 else {
                    throw problem(.badValue, "expected frames per second from 1 to 240, got '\(entry.value)'")
                }
                scene.batteryFPS = fps
            case "fps" where output == nil:
                guard let fps = Double(entry.value), fps > 0, fps <= 1000 else {
                    throw problem(.badValue, "expected frames per second from 1 to 1000, got '\(entry.value)'")
                }
                config.fps = fps
            case "pause_when" where output == nil:
                guard let rule = WallpaperPause(rawValue: entry.value) else {
                    throw problem(.badValue, "expected \(WallpaperPause.choices), got '\(entry.value)'")
                }
                config.pauseWhen = rule
            case "lock_screen" where output == nil:
                guard entry.value == "true" || entry.value == "false" else {
                    throw problem(.badValue, "expected true or false, got '\(entry.value)'")
                }
                config.lockScreen = entry.value == "true"
            case "fps", "pause_when", "lock_screen":
                throw problem(
                    .unknownKey, "\(entry.key) applies to every output: put it before the first [output] section")
            default:
                let known = output == nil ? sceneKeys + topKeys : sceneKeys
                throw problem(
                    .unknownKey, "not a wallpaper setting; the keys here are \(known.joined(separator: ", "))")
            }
            if let output { config.outputs[output] = scene } else { config.all = scene }
        }
        return config
    }

    /// `value` as a path: `~/…` under `home`, a relative path under the config file's `folder`.
    static func resolve(_ value: String, folder: String, home: String?) -> String {
        if value.hasPrefix("~/"), let home { return home + value.dropFirst() }
        return value.hasPrefix("/") ? value : PathText.join(folder, value)
    }
}
