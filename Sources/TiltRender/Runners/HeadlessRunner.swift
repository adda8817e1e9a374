import CEGL
import FoundationEssentials
import Logging
import Synchronization
import TiltCore
import TiltEffects
import TiltGL

/// `tiltfx run --headless`: the window runner's loop without a window. Draws a preset offscreen (EGL surfaceless),
/// driven by `tiltd`, obeying the power policy exactly as the window does, and counts what it drew.
///
/// There is no display rate, so `full` draws at ``frameRate``. The loop writes no files; it exists to run a renderer
/// under power gating where there is no display (a service, a test, a measurement of CPU per mode).
package struct HeadlessRunner: Sendable {
    /// The preset, size, daemon, policy and duration.
    package var settings: LiveRunConfiguration
    /// Frames per second in `full` mode (what a display's refresh would give).
    package var frameRate: Double
    /// Called on every mode change with the new decision and the power state that caused it (for `--stats`).
    package var onModeChange: @Sendable (PowerPolicy.Decision, PowerState?) -> Void
    /// Asked once per turn of the loop besides the signals: `true` ends the run (`--stats`: its reader went away).
    package var stopWhen: @Sendable () -> Bool = { false }

    /// Creates a runner.
    package init(
        settings: LiveRunConfiguration, frameRate: Double = 60,
        onModeChange: @escaping @Sendable (PowerPolicy.Decision, PowerState?) -> Void = { _, _ in }
    ) {
        self.settings = settings
        self.frameRate = frameRate
        self.onModeChange = onModeChange
    }

    /// What a run drew, and what it measured from motion to swap.
    package struct Outcome: Sendable {
        /// Frames drawn and skipped in each power mode.
        package var stats: PowerGate.Stats
        /// Sample-to-swap times and their parts, and the prediction used, frame by frame.
        package var timing: PresentationTiming
    }

    /// Runs until the settings' duration passes or SIGINT/SIGTERM arrives.
    /// - Returns: what was drawn and skipped in each mode, and the timing measured.
    /// - Throws: `RenderError` (no GL, compile errors) or `PresetError`.
    package func run(logger: Logger) throws -> Outcome {
        guard frameRate > 0, frameRate.isFinite else {
            throw RenderError.argument("the frame rate must be positive (got \(frameRate))")
        }
        let (width, height) = (settings.width, settings.height)
        let renderer = try OffscreenRenderer(
            preset: settings.preset, width: width, height: height, picture: settings.picture)
        logger.info("headless: \(renderer.rendererName), \(width)x\(height)")
        let picture = PictureFeed(picture: settings.picture, retry: PictureFeed.Retry(), logger: logger)
        try picture?.start()
        defer { picture?.stop() }
        // SIGINT and SIGTERM end the run, which then prints its statistics.
        let stops = StopSignals()
        defer { stops.cancel() }
        // No display to read a rotation from: `auto` is 0 here.
        let daemon = DaemonMotion(
            socketPath: settings.socketPath, rate: settings.policy.fullMotionRate,
            screenRotation: settings.screenRotation.initial(display: nil))
        defer { daemon.close() }
        var motion = DaemonFeed(daemon: daemon, fallback: .level, logger: logger, prediction: settings.prediction)
        let scheduler = FrameScheduler(policy: settings.policy, displayRate: frameRate, duration: settings.duration)
        var loop = FrameLoop(pacing: .live(scheduler), logger: logger)
        loop.channelMedia = ChannelMedia(webcam: settings.webcam, logger: logger)
        defer { loop.channelMedia.close() }
        loop.shouldStop = { [stopWhen] in stops.received || stopWhen() }
        loop.onModeChange = onModeChange
        let outcome = try loop.run(sink: OffscreenSink(renderer), motion: &motion, picture: picture)
        return Outcome(
            stats: outcome.stats ?? PowerGate(policy: settings.policy).finalStats(now: 0), timing: motion.timing)
    }
}
