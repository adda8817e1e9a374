import FoundationEssentials
import Logging
import TiltCore
import TiltDesktop
import TiltEffects
import TiltGL

/// `tiltfx wallpaper`: a ``WallpaperSink`` on a desktop's outputs, driven by tiltd (or a held tilt) through the one
/// ``FrameLoop``, until SIGTERM or SIGINT.
///
/// Pacing: where the compositor paces frames (Wayland's frame callbacks), frames are drawn as it asks for them, or at
/// most `fps` a second; elsewhere (X11) at `fps`, else the fastest output's refresh rate, else 60. The power policy
/// applies as in `tiltfx run`; an output covered under the ``WallpaperPause`` rule draws nothing, and with every
/// output paused the loop stops watching motion.
package struct WallpaperRunner {
    /// The default scene: what an output shows unless `scene` says otherwise.
    package var defaultScene: WallpaperSink.Scene
    /// Each output's scene, by name.
    package var scene: (String) throws -> WallpaperSink.Scene
    /// The frame rate cap; `nil`: the outputs' own.
    package var fps: Double?
    /// A tilt held still (X, Y radians): no tiltd needed.
    package var tilt: SIMD2<Double>?
    /// The daemon's socket (nil: default).
    package var socketPath: String?
    /// The power policy.
    package var policy: PowerPolicy
    /// When a covered output stops drawing.
    package var pause: WallpaperPause
    /// The picture axes to ask tiltd for: fixed, or (`auto`) the first output's rotation, followed.
    package var screenRotation: ScreenRotationChoice
    /// Stop after this many seconds (tests, measurements); nil: until signalled.
    package var duration: Double?
    /// Told on every change of power mode.
    package var onModeChange: (PowerPolicy.Decision, PowerState?) -> Void = { _, _ in }
    /// How the motion drawn is predicted (`--predict`; issue 30).
    package var prediction: PredictionSetting = .auto
    /// Asked once per turn of the loop besides the signals: `true` ends the run (`--stats`: its reader went away).
    package var stopWhen: () -> Bool = { false }

    /// A runner showing `defaultScene` on every output unless `scene` says otherwise.
    package init(
        defaultScene: WallpaperSink.Scene, scene: @escaping (String) throws -> WallpaperSink.Scene,
        policy: PowerPolicy, pause: WallpaperPause = .fullscreen, screenRotation: ScreenRotationChoice = .auto
    ) {
        self.defaultScene = defaultScene
        self.scene = scene
        self.policy = policy
        self.pause = pause
        self.screenRotation = screenRotation
    }

    /// What a run did.
    package struct Outcome {
        /// Frames drawn and skipped in each power mode.
        package var stats: PowerGate.Stats
        /// Frames drawn on outputs (one per output per frame).
        package var outputFrames: Int
        /// Seconds from each shown frame's motion (its `mono` time; a held tilt: when it was drawn) to the
        /// compositor's presentation, where `wp_presentation` reports it.
        package var latencies: LatencyRecord
        /// Sample-to-swap times and their parts, and the prediction used (`nil` for a held tilt).
        package var timing: PresentationTiming?
    }

    /// Draws on `desktop` until a signal, the duration, or the display server going away.
    /// - Throws: the default scene's compile errors, ``DesktopError`` (`.lost` when the display server went away),
    ///   media errors of the picture.
    package func run(desktop: any DesktopSurfaces, logger: Logger) throws -> Outcome {
        let stops = StopSignals()
        defer { stops.cancel() }
        let sink = try WallpaperSink(
            desktop: desktop, defaultScene: defaultScene, scene: scene, pause: pause,
            followsRotation: screenRotation == .auto, logger: logger)
        sink.frameRateCap = fps
        logger.info("wallpaper: \(desktop.backend), \(GLInfo.renderer)")
        let picture = PictureFeed(picture: defaultScene.picture, retry: PictureFeed.Retry(), logger: logger)
        try picture?.start()
        defer { picture?.stop() }
        sink.pictureFeed = picture
        let fastest = desktop.outputs.compactMap(\.refreshRate).max()
        let rate = fps ?? (desktop.pacesFrames ? nil : fastest ?? 60)
        let scheduler = FrameScheduler(policy: policy, displayRate: rate, duration: duration)
        var loop = FrameLoop(pacing: .live(scheduler), logger: logger)
        loop.shouldStop = { [stopWhen] in stops.received || stopWhen() }
        loop.onModeChange = onModeChange
        let outcome: FrameLoop.Outcome
        var timing: PresentationTiming?
        if let tilt {
            var motion = HeldMotion(tilt: tilt)
            outcome = try loop.run(sink: sink, motion: &motion, picture: picture)
        } else {
            let daemon = DaemonMotion(
                socketPath: socketPath, rate: policy.fullMotionRate,
                screenRotation: screenRotation.initial(auto: sink.initialRotation))
            defer { daemon.close() }
            sink.motionTime = { daemon.snapshot.frame?.mono }
            sink.powerState = { daemon.snapshot.power }
            var motion = DaemonFeed(daemon: daemon, fallback: .level, logger: logger, prediction: prediction)
            outcome = try loop.run(sink: sink, motion: &motion, picture: picture)
            timing = motion.timing
        }
        if let failure = sink.failure { throw failure }
        return Outcome(
            stats: outcome.stats ?? PowerGate(policy: policy).finalStats(now: 0), outputFrames: sink.outputFrames,
            latencies: sink.latencies, timing: timing)
    }
}
