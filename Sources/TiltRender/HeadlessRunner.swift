import CEGL
import Foundation
import Logging
import Synchronization
import TiltCore
import TiltEffects

/// Set by SIGINT or SIGTERM during a headless run: the run ends and prints its statistics.
private let headlessStopRequested = Atomic<Bool>(false)

/// `tiltfx run --headless`: the window runner's loop without a window. Draws a preset offscreen (EGL surfaceless),
/// driven by `tiltd`, obeying the power policy exactly as the window does, and counts what it drew.
///
/// There is no display rate, so `full` draws at ``frameRate``. The loop writes no files; it exists to run a renderer
/// under power gating where there is no display (a service, a test, a measurement of CPU per mode).
public struct HeadlessRunner: Sendable {
    /// The preset to draw.
    public var preset: Preset
    /// Output width.
    public var width: Int
    /// Output height.
    public var height: Int
    /// The daemon's socket (nil: default).
    public var socketPath: String?
    /// Stop after this many seconds; nil runs until SIGINT or SIGTERM.
    public var duration: Double?
    /// The power policy.
    public var policy: PowerPolicy
    /// Frames per second in `full` mode (what a display's refresh would give).
    public var frameRate: Double
    /// Called on every mode change with the new decision and the power state that caused it (for `--stats`).
    public var onModeChange: @Sendable (PowerPolicy.Decision, PowerState?) -> Void

    /// Creates a runner.
    public init(
        preset: Preset, width: Int, height: Int, socketPath: String?, duration: Double?, policy: PowerPolicy,
        frameRate: Double = 60,
        onModeChange: @escaping @Sendable (PowerPolicy.Decision, PowerState?) -> Void = { _, _ in }
    ) {
        self.preset = preset
        self.width = width
        self.height = height
        self.socketPath = socketPath
        self.duration = duration
        self.policy = policy
        self.frameRate = frameRate
        self.onModeChange = onModeChange
    }

    /// Runs until `duration` passes or SIGINT/SIGTERM arrives.
    /// - Returns: what was drawn and skipped in each mode.
    /// - Throws: `RenderError` (no GL, compile errors) or `PresetError`.
    public func run(logger: Logger) throws -> PowerGate.Stats {
        guard frameRate > 0, frameRate.isFinite else {
            throw RenderError.argument("the frame rate must be positive (got \(frameRate))")
        }
        let renderer = try OffscreenRenderer(preset: preset, width: width, height: height)
        logger.info("headless: \(renderer.rendererName), \(width)x\(height)")
        Self.installStopHandlers()
        let daemon = DaemonMotion(socketPath: socketPath, rate: policy.fullMotionRate)
        defer { daemon.close() }
        var gate = PowerGate(policy: policy)
        let clock = ContinuousClock()
        let start = clock.now
        func now() -> Double { WindowRunner.seconds(start.duration(to: clock.now)) }
        var inputs = FrameInputs(size: SIMD2(Double(width), Double(height)))
        var lastDrawn: FrameInputs?
        var frame = 0
        var last = 0.0
        while !headlessStopRequested.load(ordering: .relaxed) {
            let t = now()
            if let duration, t >= duration { break }
            let snapshot = daemon.snapshot
            if let decision = gate.update(power: snapshot.power, window: .visible, now: t) {
                if let rate = decision.motionRate { daemon.setRate(rate) } else { daemon.setWatching(false) }
                logger.info("power: \(decision.summary)")
                onModeChange(decision, snapshot.power)
                lastDrawn = nil
            }
            let remaining = duration.map { $0 - t } ?? 1
            guard let delay = gate.delay(now: t, displayRate: frameRate) else {
                // Still or hidden: no frames until the power state changes (or the run ends).
                daemon.waitForChange(timeout: min(1, max(0, remaining)))
                continue
            }
            if delay > 0 {
                Thread.sleep(forTimeInterval: min(delay, max(0, remaining)))
                continue
            }
            if let motion = snapshot.frame { inputs.apply(motion) }
            inputs.time = t
            inputs.timeDelta = t - last
            inputs.frame = frame
            last = t
            var key = inputs
            key.time = 0
            key.timeDelta = 0
            key.frame = 0
            if !renderer.effects.isAnimated && key == lastDrawn && gate.decision?.mode != .still {
                gate.skipped(now: t)
                continue
            }
            lastDrawn = key
            try renderer.drawAndWait(inputs)
            frame += 1
            gate.drew(now: t)
        }
        return gate.finalStats(now: now())
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
