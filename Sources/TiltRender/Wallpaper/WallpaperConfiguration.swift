import FoundationEssentials
import TiltCore
import TiltDesktop
import TiltGL

/// When the wallpaper stops drawing an output (`--pause-when`, `pause_when`).
package enum WallpaperPause: String, Sendable, Hashable, CaseIterable {
    /// When the active window on the output is fullscreen (a film, a game).
    case fullscreen
    /// When any window on the output is fullscreen or maximized, active or not.
    case covered
    /// Never for windows; only when the compositor stops asking for frames.
    case never

    /// Whether an output that looks like `visibility` is paused under this rule.
    package func pauses(_ visibility: DesktopOutput.Visibility) -> Bool {
        switch visibility {
        case .visible: false
        case .notDrawn, .hidden: true
        case .fullscreen: self != .never
        case .covered: self == .covered
        }
    }
}

/// `tiltfx wallpaper --config FILE`: what the wallpaper shows, in the house config format (``ConfigFile``).
///
/// ```
/// preset = parallax          # every output, unless its section says otherwise
/// image = ~/Pictures/hills.jpg
/// fit = cover
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
/// `image` and `fit`. Command-line options override the keys before the first section, never a section's.
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

        /// A scene.
        package init(preset: String? = nil, image: String? = nil, fit: PictureContent.Fit? = nil) {
            self.preset = preset
            self.image = image
            self.fit = fit
        }

        /// This scene's fields, each taken from `fallback` where this one has none.
        package func over(_ fallback: Scene) -> Scene {
            Scene(preset: preset ?? fallback.preset, image: image ?? fallback.image, fit: fit ?? fallback.fit)
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
    static let sceneKeys = ["preset", "image", "fit"]
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
            case "fps" where output == nil:
                guard let fps = Double(entry.value), fps > 0, fps <= 1000 else {
                    throw problem(.badValue, "expected frames per second from 1 to 1000, got '\(entry.value)'")
                }
                config.fps = fps
            case "pause_when" where output == nil:
                guard let rule = WallpaperPause(rawValue: entry.value) else {
                    throw problem(.badValue, "expected fullscreen, covered or never, got '\(entry.value)'")
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
