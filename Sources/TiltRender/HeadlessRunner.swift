import CEGL
import Foundation
import Logging
import Synchronization
import TiltCore
import TiltEffects
import TiltGL

/// Set by SIGINT or SIGTERM during a headless run: the run ends and prints its statistics.
private let headlessStopRequested = Atomic<Bool>(false)

/// `tiltfx run --headless`: the window runner's loop without a window. Draws a preset offscreen (EGL surfaceless),
/// driven by `tiltd`, obeying the power policy exactly as the window does, and counts what it drew.
///
/// There is no display rate, so `full` draws at ``frameRate``. The loop writes no files; it exists to run a renderer
/// under power gating where there is no display (a service, a test, a measurement of CPU per mode).
public struct HeadlessRunner: Sendable {
    /// The preset, size, daemon, policy and duration.
    public var settings: LiveRunSettings
    /// Frames per second in `full` mode (what a display's refresh would give).
    public var frameRate: Double
    /// Called on every mode change with the new decision and the power state that caused it (for `--stats`).
    public var onModeChange: @Sendable (PowerPolicy.Decision, PowerState?) -> Void

    /// Creates a runner.
    public init(
        settings: LiveRunSettings, frameRate: Double = 60,
        onModeChange: @escaping @Sendable (PowerPolicy.Decision, PowerState?) -> Void = { _, _ in }
    ) {
        self.settings = settings
        self.frameRate = frameRate
        self.onModeChange = onModeChange
    }

    /// Runs until the settings' duration passes or SIGINT/SIGTERM arrives.
    /// - Returns: what was drawn and skipped in each mode.
    /// - Throws: `RenderError` (no GL, compile errors) or `PresetError`.
    public func run(logger: Logger) throws -> PowerGate.Stats {
        guard frameRate > 0, frameRate.isFinite else {
            throw RenderError.argument("the frame rate must be positive (got \(frameRate))")
        }
        let (width, height) = (settings.width, settings.height)
        let renderer = try OffscreenRenderer(
            preset: settings.preset, width: width, height: height, picture: settings.picture)
        logger.info("headless: \(renderer.rendererName), \(width)x\(height)")
        let feed = PictureFeed(picture: settings.picture, retry: PictureFeed.Retry(), logger: logger)
        try feed?.start()
        defer { feed?.stop() }
        Self.installStopHandlers()
        // No display to read a rotation from: `auto` is 0 here.
        let daemon = DaemonMotion(
            socketPath: settings.socketPath, rate: settings.policy.fullMotionRate,
            screenRotation: settings.screenRotation.initial(display: nil))
        defer { daemon.close() }
        var scheduler = FrameScheduler(policy: settings.policy, displayRate: frameRate, duration: settings.duration)
        let clock = ContinuousClock()
        let start = clock.now
        func now() -> Double { start.duration(to: clock.now).inSeconds }
        var inputs = FrameInputs(size: SIMD2(Double(width), Double(height)))
        var frame = 0
        var last = 0.0
        var saidNoDaemon = false
        loop: while !headlessStopRequested.load(ordering: .relaxed) {
            let t = now()
            let snapshot = daemon.snapshot
            if !snapshot.connected && !saidNoDaemon && t > 1 {
                // Said once, after a second, so a daemon that is merely slow to answer is not reported missing.
                let why = snapshot.lastProblem.map { " (\($0))" } ?? ""
                let fallback =
                    "drawing with no motion (tilt 0,0) and, with no power state, as on mains; start tiltd or give "
                    + "--socket. Frames follow it once it answers."
                logger.notice("no tiltd answers at \(daemon.socketPath)\(why): \(fallback)")
                saidNoDaemon = true
            } else if snapshot.connected && saidNoDaemon {
                logger.info("tiltd answers at \(daemon.socketPath) now")
                saidNoDaemon = false
            }
            let step = scheduler.next(power: snapshot.power, window: .visible, now: t)
            if let change = step.change {
                daemon.watch(rate: change.motionRate)
                logger.info("power: \(change.summary)")
                if let line = try feed?.follow(change.mode, showingOn: renderer.effects) {
                    logger.info("picture: \(line)")
                }
                onModeChange(change, snapshot.power)
            }
            switch step.action {
            case .stop: break loop
            case .idle(let timeout):
                // Still: no frames until the power state changes (or the run ends).
                daemon.waitForChange(timeout: min(1, timeout ?? 1))
            case .wait(let seconds): Thread.sleep(forTimeInterval: seconds)
            case .frameDue:
                if let motion = snapshot.frame { inputs.apply(motion) }
                inputs.time = t
                inputs.timeDelta = t - last
                inputs.frame = frame
                last = t
                // A new video frame is drawn even when nothing else changed.
                let fresh = try feed?.refresh(renderer.effects) ?? false
                if scheduler.admit(inputs, animated: renderer.effects.isAnimated || fresh, now: t) {
                    try renderer.drawAndWait(inputs)
                    frame += 1
                }
            }
        }
        return scheduler.finalStats(now: now())
    }

    /// SIGINT and SIGTERM end the run (unblocked here: a parent may have blocked them).
    private static func installStopHandlers() {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        let handler: @convention(c) (Int32) -> Void = { _ in headlessStopRequested.store(true, ordering: .relaxed) }
        signal(SIGINT, handler)
        signal(SIGTERM, handler)
    }
}
