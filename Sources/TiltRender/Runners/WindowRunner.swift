import FoundationEssentials
import Logging
import TiltCore
import TiltEffects
import TiltGL

/// `tiltfx run`: an SDL2 window (X11 or Wayland) drawing a preset with the same `EffectRenderer` as the headless
/// path, driven by `tiltd`, or by the pointer when no daemon answers. Watches the preset and reloads it on change.
///
/// The window is a ``FrameSink`` (``WindowSink``) of the one ``FrameLoop``: SDL events become the scheduler's inputs
/// (visibility, exposure, reloads, the pointer) and its frames SDL calls (draw and swap). The power rules live in the
/// ``FrameScheduler``.
package struct WindowRunner: Sendable {
    /// The preset, size, daemon, policy and duration.
    package var settings: LiveRunConfiguration

    /// Creates a runner.
    package init(settings: LiveRunConfiguration) {
        self.settings = settings
    }

    /// Opens the window and runs until it is closed (or Escape, or the settings' duration).
    /// - Throws: `RenderError.argument` when there is no display (``DisplayCheck``), `RenderError.window` when SDL
    ///   has no video driver or GL ES 3 context; compile errors of the first load.
    package func run(logger: Logger) throws {
        if let problem = DisplayCheck.problem(environment: ProcessInfo.processInfo.environment) {
            throw RenderError.argument(problem)
        }
        let sink = try WindowSink(
            preset: settings.preset, picture: settings.picture, width: settings.width, height: settings.height,
            screenRotation: settings.screenRotation, fitsDisplay: settings.fitsDisplay,
            keysToShader: settings.keysToShader, logger: logger)
        let picture = PictureFeed(picture: settings.picture, retry: PictureFeed.Retry(), logger: logger)
        try picture?.start()
        defer { picture?.stop() }
        let daemon = DaemonMotion(
            socketPath: settings.socketPath, rate: settings.policy.fullMotionRate,
            screenRotation: sink.initialRotation)
        defer { daemon.close() }
        var motion = DaemonFeed(daemon: daemon, fallback: .pointer, logger: logger, prediction: settings.prediction)
        let scheduler = FrameScheduler(policy: settings.policy, duration: settings.duration)
        var loop = FrameLoop(pacing: .live(scheduler), logger: logger)
        loop.channelMedia = ChannelMedia(webcam: settings.webcam, logger: logger)
        defer { loop.channelMedia.close() }
        try loop.run(sink: sink, motion: &motion, picture: picture)
    }
}
