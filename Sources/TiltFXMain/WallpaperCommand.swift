import ArgumentParser
import FoundationEssentials
import Logging
import TiltCore
import TiltDesktop
import TiltEffects
import TiltGL
import TiltRender
import TiltWire

/// `tiltfx wallpaper`: the tilt-driven desktop background, on every output, that sleeps when nobody sees it.
struct WallpaperCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wallpaper",
        abstract:
            "Draw your wallpaper with depth, or a preset, behind every window on every monitor, driven by tiltd.",
        discussion: """
            On Wayland (sway, Hyprland, KDE Plasma, any compositor with wlr-layer-shell) each output gets a background \
            surface; on X11 each RandR monitor a desktop window below all others. On GNOME (Wayland or Xorg) the \
            tilt-wallpaper Shell extension runs it with --gnome and shows it behind the desktop (docs/gnome.md).
            The default scene is your own wallpaper with depth (the depth preset): --image or the config file's \
            picture, else on GNOME the picture its background settings show, else depth's own hills; it shifts \
            against the tilt, a few percent magnified so no edge shows, and costs nothing at rest.
            Frames are drawn only when the tilt, the picture or the effect's time changes, at the output's own rate \
            (or --fps). An output whose active window is fullscreen draws nothing (--pause-when); when no output \
            can be seen, the wallpaper stops watching motion, so tiltd's sensor can sleep. On battery and in \
            power-saver mode the power policy applies, as for `tiltfx run`: capped, then one still frame.
            Without --tilt and without a running tiltd, the level picture shows until tiltd answers.
            Per-output choices go in a config file (--config FILE; the README's Wallpaper section), e.g.:
              preset = parallax
              [output HDMI-A-1]
              preset = holo-card
              image = ~/Pictures/card.png
            Runs until SIGTERM or Ctrl-C (exit 0). As a user service: systemctl --user enable --now \
            tiltfx-wallpaper.service
            """)

    @OptionGroup var presets: PresetOptions

    @Option(
        help: ArgumentHelp(
            "The preset's name (see `tiltfx presets`), a preset folder, or a Shadertoy JSON export (default: the "
                + "config file's, else depth: the desktop's own picture, or --image, shifting against the tilt)."))
    var preset: String?

    @Option(help: "A PNG or JPEG picture, or a video file (played in a loop), as the content the preset shades.")
    var image: String?

    @Option(help: "How the picture fills each output: contain, cover (default for the wallpaper), or stretch.")
    var fit: PictureContent.Fit?

    @Option(
        name: .customLong("output"),
        help: ArgumentHelp("Draw on this output only (repeat for several; default: every output).", valueName: "name"))
    var outputs: [String] = []

    @Option(parsing: .unconditional, help: "At most this many frames a second (default: each output's own rate).")
    var fps: Double?

    @Option(
        help: ArgumentHelp(
            "Draw this fraction of each output's pixels each way and stretch it (0.5: a quarter of the pixels), or "
                + "auto: a scale that keeps a frame's drawing within a third of the frame period, from the measured "
                + "draw time; never below the preset's minScale (default: 1, every pixel).",
            valueName: "0.25…1|auto"))
    var scale: RenderScale?

    @Option(
        parsing: .unconditional,
        help: "Hold this tilt, X,Y radians (e.g. --tilt 0.2,-0.1): no tiltd needed, only the effect's time runs.")
    var tilt: TiltPair?

    @Option(
        name: .customLong("pause-when"),
        help: ArgumentHelp(
            "Stop drawing an output when its active window is fullscreen, when any window on it is fullscreen or "
                + "maximized (covered), every output when any output's active window is fullscreen "
                + "(any-fullscreen), or never (default: fullscreen).",
            valueName: "fullscreen|covered|any-fullscreen|never"))
    var pauseWhen: WallpaperPause?

    @Option(
        help: ArgumentHelp(
            "Per-output presets and pictures (the README's Wallpaper section; default: "
                + "$XDG_CONFIG_HOME/tilt/wallpaper.conf when it is there).",
            valueName: "file"))
    var config: String?

    @OptionGroup var daemon: DaemonSocketOption

    @OptionGroup var power: PowerPolicyOption

    @Option(
        name: .customLong("screen-rotation"),
        help: ArgumentHelp(
            "The rotation, in degrees counter-clockwise, the display gives its picture: tilt follows the picture's "
                + "axes. auto takes the first output's and follows it.",
            valueName: "0|90|180|270|auto"))
    var screenRotation = "auto"

    @Option(parsing: .unconditional, help: "Stop after this many seconds (for tests and measurements).")
    var seconds: Double?

    @Flag(
        help: """
            Print a JSON line on each power mode change, and at the end a statistics line, a presentation line and \
            a latency line (sample-to-swap time and its parts, p50/p99, and the prediction used).
            """)
    var stats = false

    @OptionGroup var prediction: PredictOption

    @Flag(
        help: """
            Run for the tilt-wallpaper GNOME Shell extension, which starts it: on Wayland one plain window per \
            monitor, titled 'tiltfx-wallpaper NAME', that the extension shows behind the desktop; standard input \
            takes the extension's lines on what covers each monitor (docs/gnome.md), and its end stops the wallpaper.
            """)
    var gnome = false

    func validate() throws {
        try presets.requireDirectory()
        if ScreenRotationChoice(argument: screenRotation) == nil {
            throw ValidationError("--screen-rotation must be 0, 90, 180, 270 or auto, not '\(screenRotation)'")
        }
        if let fps, !(fps > 0 && fps <= RunCommand.maxFrameRate) {
            throw ValidationError("--fps must be more than 0 and at most \(Int(RunCommand.maxFrameRate)), e.g. 30")
        }
        if let seconds, !(seconds > 0 && seconds.isFinite) { throw ValidationError("--seconds must be positive") }
        if let tilt, !tilt.isWithinOneTurn {
            throw ValidationError("--tilt \(tilt): X and Y must each be from -π to π radians (-3.1416 to 3.1416)")
        }
        if let empty = outputs.first(where: { $0.trimmingWhitespace.isEmpty }) {
            throw ValidationError("--output needs an output's name, got '\(empty)'; e.g. --output eDP-1")
        }
    }

    /// The built-in preset when neither the options nor the config file name one: the desktop's own picture (or
    /// `--image`), with depth.
    static let defaultPreset = "depth"

    /// Whether `scene` shows the desktop's own picture: the depth preset with no picture named.
    static func showsDesktopPicture(_ scene: WallpaperConfiguration.Scene) -> Bool {
        scene.image == nil && (scene.preset ?? defaultPreset) == defaultPreset
    }

    /// The desktop's own picture, decoded, when some scene shows it and the desktop is GNOME; `nil` (with a warning
    /// saying why, and the depth preset's own art instead) when it cannot be had. Never ends the run.
    static func desktopPicture(gnome: Bool, wanted: Bool, logger: Logger) -> PictureContent? {
        guard wanted, gnome else { return nil }
        switch DesktopPicture.gnome() {
        case .failure(let problem):
            logger.warning("the desktop's picture: \(problem); drawing the depth preset's own picture")
            return nil
        case .success(let found):
            do {
                let picture = try found.load()
                logger.info("the desktop's picture, with depth: \(found.path) (\(found.origin))")
                return picture
            } catch {
                logger.warning(
                    "the desktop's picture (\(found.origin)): \(error); drawing the depth preset's own picture")
                return nil
            }
        }
    }

    func run() throws {
        let logger = Logger(label: "tiltfx.wallpaper")
        let environment = ProcessInfo.processInfo.environment
        let file = try Self.configPath(given: config, environment: environment).map {
            path throws -> WallpaperConfiguration in
            logger.info("config: \(path)")
            do { return try WallpaperConfiguration.read(path: path, home: environment["HOME"]) } catch {
                throw TiltFXError("\(error)")
            }
        }
        // Options over the file's top, the file's [output] sections over both.
        let given = WallpaperConfiguration.Scene(preset: preset, image: image, fit: fit, scale: scale)
        let all = given.over(file?.all ?? WallpaperConfiguration.Scene())
        let library = presets.library
        let desktopPicture = Self.desktopPicture(
            gnome: gnome || DesktopPicture.isGNOME(currentDesktop: environment["XDG_CURRENT_DESKTOP"]),
            wanted: ([all] + (file?.outputs.values.map { $0.over(all) } ?? [])).contains(
                where: Self.showsDesktopPicture),
            logger: logger)
        // `--power-policy full|capped|still` fixes every output's; auto: each output's preset and power keys.
        let fixedPolicy = power.policy.fixed
        func load(_ scene: WallpaperConfiguration.Scene, isDefault: Bool) throws -> WallpaperSink.Scene {
            let loaded = try library.load(scene.preset ?? Self.defaultPreset)
            var picture = try scene.image.map { try PictureContent.load(path: $0, fit: scene.fit ?? .cover) }
            if Self.showsDesktopPicture(scene), var desktop = desktopPicture {
                if let fit = scene.fit { desktop.fit = fit }
                picture = desktop
            }
            if !isDefault, picture?.isMoving == true {
                throw TiltFXError(
                    "\(scene.image ?? ""): a video plays on every output, through --image or the config file's "
                        + "image before its first [output] section; an [output] section takes a picture (PNG, JPEG)")
            }
            return WallpaperSink.Scene(
                preset: loaded, picture: picture, isDefault: isDefault, scale: scene.scale ?? .full,
                policy: scene.policy(for: loaded, fixed: fixedPolicy))
        }
        let defaultScene = try load(all, isDefault: true)
        // Every section is loaded now, so a mistake in one is told at start, not when its monitor is plugged in.
        var sections: [String: WallpaperSink.Scene] = [:]
        for (name, section) in file?.outputs ?? [:] where section.over(all) != all {
            sections[name] = try load(section.over(all), isDefault: false)
        }
        let loaded = sections
        // The loop follows the most demanding output; each output holds back to its own policy.
        let policy = PowerPolicy.mostDemanding([defaultScene.policy] + loaded.values.map(\.policy))
        var runner = WallpaperRunner(
            defaultScene: defaultScene, scene: { loaded[$0] ?? defaultScene }, policy: policy,
            pause: pauseWhen ?? file?.pauseWhen ?? .fullscreen,
            screenRotation: ScreenRotationChoice(argument: screenRotation) ?? .auto)
        runner.fps = fps ?? file?.fps
        runner.tilt = tilt.map { SIMD2($0.x, $0.y) }
        runner.socketPath = daemon.socket
        runner.duration = seconds
        runner.prediction = prediction.setting
        if stats {
            runner.onModeChange = { decision, power in RunCommand.emit(decision.jsonLine(power: power)) }
            runner.stopWhen = { StandardOutput.readerLeft() }
        }
        let shell = gnome ? ShellChannel(warn: { logger.warning("\($0)") }) : nil
        let desktop = try DesktopConnection.open(outputs: outputs.isEmpty ? nil : Set(outputs), shell: shell)
        let outcome = try runner.run(desktop: desktop, logger: logger)
        // `--stats | head -1`: a reader that went away ends the run, and tiltfx as a write to it would.
        if stats && StandardOutput.readerLeft() { StandardOutput.endBecauseReaderLeft() }
        if stats {
            RunCommand.emit(outcome.stats.jsonLine)
            RunCommand.emit(Self.latencyLine(outcome))
            if let timing = outcome.timing { RunCommand.emit(timing.jsonLine(setting: runner.prediction)) }
        }
    }

    /// `--config`, else the user's `$XDG_CONFIG_HOME/tilt/wallpaper.conf` (`~/.config/tilt/wallpaper.conf`) when it
    /// is there (what the user unit runs with); `nil`: none.
    static func configPath(given: String?, environment: [String: String]) -> String? {
        if let given { return given }
        let base =
            environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? environment["HOME"].map { $0 + "/.config" }
        guard let base else { return nil }
        let path = base + "/tilt/wallpaper.conf"
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    /// `{"class":"presented","outputFrames":N,"presented":N,"latencyMedianMs":…,"latencyP95Ms":…}`: the frames drawn
    /// on outputs and, where the compositor reports presentation, the time from a frame's motion to the screen.
    static func latencyLine(_ outcome: WallpaperRunner.Outcome) -> String {
        var json = JSONWriter()
        json.field("class", "presented")
        json.field("outputFrames", outcome.outputFrames)
        json.field("presented", outcome.latencies.count)
        for (key, p) in [("latencyMedianMs", 0.5), ("latencyP95Ms", 0.95)] {
            if let value = outcome.latencies.percentile(p) {
                json.field(key, (value * 10_000).rounded() / 10)
            } else {
                json.null(key)
            }
        }
        return json.finish()
    }
}

extension WallpaperPause: ExpressibleByArgument {}

extension RenderScale: ExpressibleByArgument {
    package init?(argument: String) {
        self.init(text: argument)
    }
}
