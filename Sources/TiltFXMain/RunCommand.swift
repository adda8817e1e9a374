import ArgumentParser
import FoundationEssentials
import Logging
import TiltCore
import TiltEffects
import TiltRender

/// `tiltfx run`: a window driven by tiltd, or by the pointer when no daemon answers; or the same loop headless.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Show a preset in a window (X11 or Wayland), driven by tiltd or, without it, by the pointer.",
        discussion: """
            Edits to the preset's files reload within 100 ms; a compile error keeps the last good shader. Esc quits             (unless --keys-to-shader). Keys reach a Shadertoy keyboard channel as the browser's key codes; headless,             every key is up.
            Power: on mains it draws at the display's rate; on battery at most 30 fps with motion at 15 Hz; when \
            the system saves power (power-saver profile, battery under 20 %) it draws one still frame and stops \
            watching motion until the power state changes. A hidden or minimised window draws nothing. \
            --power-policy full|capped|still fixes one mode; a preset's "power" key changes the automatic choice.
            Moving content: --image VIDEO plays a video file in a loop, --camera [DEVICE] a V4L2 camera, --source \
            PIPELINE any GStreamer pipeline; the newest frame is drawn as it comes. A camera or pipeline is closed \
            (the device released) while a still frame is shown or the window is hidden, and opened again after. \
            One that stops while playing (unplugged, an error, its end) keeps its last picture and is opened again \
            every 1 to 10 s until it is back.
            The window needs a display ($DISPLAY or $WAYLAND_DISPLAY, or a driver named in $SDL_VIDEODRIVER); \
            without one, tiltfx run stops at once. Headless (no display, EGL surfaceless): \
            tiltfx run --headless --preset foil --seconds 10 --stats
            """)

    @OptionGroup var choice: PresetChoice

    @OptionGroup var picture: PictureOptions

    @Option(
        parsing: .unconditional,
        help: "Window size, WxH (default: 720x960, scaled down to fit the display's usable area; headless: 720x960).")
    var size: PixelSize?

    @OptionGroup var daemon: DaemonSocketOption

    @Option(parsing: .unconditional, help: "Close the window after this many seconds.")
    var seconds: Double?

    @OptionGroup var power: PowerPolicyOption

    @Flag(help: "Draw offscreen with no window or display (EGL surfaceless), driven by tiltd.")
    var headless = false

    @Option(parsing: .unconditional, help: "Frames per second of the headless run in full mode.")
    var fps: Double = 60

    @Flag(
        help: """
            Headless: print a JSON line on each power mode change, and at the end a statistics line and a latency \
            line (sample-to-swap time and its parts, p50/p99, and the prediction used).
            """)
    var stats = false

    @OptionGroup var prediction: PredictOption

    @Flag(
        name: .customLong("keys-to-shader"),
        help: "Give Escape to the shader's keyboard channel too; it no longer closes the window (close it instead).")
    var keysToShader = false

    @Option(
        name: .customLong("screen-rotation"),
        help: ArgumentHelp(
            "The rotation, in degrees counter-clockwise, the display gives its picture: tilt follows the picture's "
                + "axes. auto reads it from X11 RandR and follows it (0 when there is none, and headless).",
            valueName: "0|90|180|270|auto"))
    var screenRotation = "auto"

    func validate() throws {
        try choice.presets.requireDirectory()
        if let size, let problem = size.problem() { throw ValidationError(problem) }
        if ScreenRotationChoice(argument: screenRotation) == nil {
            throw ValidationError("--screen-rotation must be 0, 90, 180, 270 or auto, not '\(screenRotation)'")
        }
        if let seconds, !(seconds > 0 && seconds.isFinite) { throw ValidationError("--seconds must be positive") }
        if !(fps > 0 && fps <= Self.maxFrameRate) {
            throw ValidationError(
                "--fps must be more than 0 and at most \(Int(Self.maxFrameRate)), e.g. 60: no display draws faster, "
                    + "and a higher rate only spins the CPU")
        }
        if stats && !headless { throw ValidationError("--stats goes with --headless") }
        if keysToShader && headless {
            throw ValidationError("--keys-to-shader goes with the window: headless, there is no keyboard")
        }
    }

    /// The highest `--fps` of a headless run: past the fastest displays (a few hundred Hz), a higher rate is a busy
    /// loop that measures nothing.
    static let maxFrameRate = 1000.0

    func run() throws {
        let loaded = try choice.load()
        let policy = power.policy.policy(preset: loaded)
        let logger = Logger(label: "tiltfx")
        let chosen = size ?? PixelSize(width: 720, height: 960)
        var settings = LiveRunConfiguration(
            preset: loaded, width: chosen.width, height: chosen.height, socketPath: daemon.socket, duration: seconds,
            policy: policy, picture: try picture.load(for: loaded),
            screenRotation: ScreenRotationChoice(argument: screenRotation) ?? .auto)
        settings.webcam = picture.webcam(for: loaded)
        settings.fitsDisplay = size == nil
        settings.prediction = prediction.setting
        settings.keysToShader = keysToShader
        if headless {
            let printStats = stats
            var runner = HeadlessRunner(settings: settings, frameRate: fps) { decision, power in
                guard printStats else { return }
                Self.emit(decision.jsonLine(power: power))
            }
            if stats { runner.stopWhen = { StandardOutput.readerLeft() } }
            let result = try runner.run(logger: logger)
            // `--stats | head -1`: a reader that went away ends the run, and tiltfx as a write to it would.
            if stats && StandardOutput.readerLeft() { StandardOutput.endBecauseReaderLeft() }
            if stats {
                Self.emit(result.stats.jsonLine)
                Self.emit(result.timing.jsonLine(setting: settings.prediction))
            }
            return
        }
        try WindowRunner(settings: settings).run(logger: logger)
    }

    /// Prints a line and flushes, so a reader of a pipe sees it at once.
    static func emit(_ line: String) {
        // A reader that went away ends tiltfx here (StandardOutput); another failure (a full disk) loses the line.
        try? StandardOutput.line(line)
    }
}

/// `--power-policy`.
enum PowerPolicyChoice: String, ExpressibleByArgument, CaseIterable, Sendable {
    case auto, full, capped, still

    /// The policy: the preset's (or the automatic one) for `auto`, else one fixed mode.
    func policy(preset: Preset) -> PowerPolicy {
        fixed ?? PowerPolicy.automatic(for: preset)
    }

    /// The one mode's policy; `nil` for `auto`.
    var fixed: PowerPolicy? {
        switch self {
        case .auto: nil
        case .full: .fixed(.full)
        case .capped: .fixed(.capped)
        case .still: .fixed(.still)
        }
    }
}
