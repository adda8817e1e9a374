import Foundation
import Logging
import TiltCore
import TiltEffects
import TiltGL

/// `tiltfx run`: an SDL2 window (X11 or Wayland) drawing a preset with the same `EffectRenderer` as the headless
/// path, driven by `tiltd`, or by the pointer when no daemon answers. Watches the preset and reloads it on change.
///
/// The window is glue: SDL events become ``FrameScheduler`` inputs (power, visibility, exposure, reloads) and its
/// decisions become SDL calls (wait for events, sleep, draw and swap). The power rules live in the scheduler.
public struct WindowRunner: Sendable {
    /// The preset, size, daemon, policy and duration.
    public var settings: LiveRunSettings

    /// Creates a runner.
    public init(settings: LiveRunSettings) {
        self.settings = settings
    }

    /// Opens the window and runs until it is closed (or Escape, or the settings' duration).
    /// - Throws: `RenderError.argument` when there is no display (``DisplayCheck``), `RenderError.window` when SDL
    ///   has no video driver or GL ES 3 context; compile errors of the first load.
    public func run(logger: Logger) throws {
        if let problem = DisplayCheck.problem(environment: ProcessInfo.processInfo.environment) {
            throw RenderError.argument(problem)
        }
        let window = try SDLWindow(
            title: Self.title(settings.preset.name), width: settings.width, height: settings.height)
        logger.info("window open: \(GLInfo.renderer), \(GLInfo.version)")
        var live = try LivePreset(settings.preset, picture: settings.picture)
        let feed = PictureFeed(picture: settings.picture, retry: PictureFeed.Retry(), logger: logger)
        try feed?.start()
        defer { feed?.stop() }
        let banner = try ErrorBanner()
        let display = settings.screenRotation == .auto ? DisplayRotation() : nil
        var rotation = settings.screenRotation.initial(display: display)
        if settings.screenRotation == .auto {
            let how = display == nil ? " (no X11 RandR to read it from; pass --screen-rotation)" : ", followed"
            logger.info("screen rotation: \(rotation.degrees)°\(how)")
        }
        let daemon = DaemonMotion(
            socketPath: settings.socketPath, rate: settings.policy.fullMotionRate, screenRotation: rotation)
        defer { daemon.close() }
        var nextRotationCheck = 1.0
        var scheduler = FrameScheduler(policy: settings.policy, duration: settings.duration)
        var driver = TiltDriver(daemon: daemon, logger: logger)

        let clock = ContinuousClock()
        let start = clock.now
        var last = start
        var frame = 0
        var pointer = SIMD2<Double>(Double(settings.width) / 2, Double(settings.height) / 2)
        var pointerDown = false
        var waitMilliseconds: Int32 = 0
        while true {
            let events = window.events(waitMilliseconds: waitMilliseconds)
            waitMilliseconds = 0
            if events.quit { break }
            if events.windowChanged { scheduler.invalidate() }
            pointer = events.pointer ?? pointer
            pointerDown = events.pointerDown ?? pointerDown
            switch live.reloadIfChanged(logger: logger) {
            case true?:
                try feed?.reshow(live.effects)
                scheduler.contentChanged()
                window.title = Self.title(live.preset.name)
            case false?:
                scheduler.invalidate()  // a still frame shows the error too
                banner.show("reload failed, last good shader kept:\n\(live.problem ?? "")")
                let firstLine = live.problem?.split(separator: "\n").dropFirst().first ?? ""
                window.title = Self.title("ERROR \(firstLine)")
            case nil: break
            }
            let elapsed = start.duration(to: clock.now).inSeconds
            if let display, elapsed >= nextRotationCheck {
                nextRotationCheck = elapsed + 1
                if let current = display.current(), current != rotation {
                    rotation = current
                    daemon.setScreenRotation(current)
                    scheduler.invalidate()
                    logger.info("screen rotation: \(current.degrees)°")
                }
            }
            let step = scheduler.next(power: daemon.snapshot.power, window: window.visibility, now: elapsed)
            if let change = step.change {
                daemon.watch(rate: change.motionRate)
                logger.info("power: \(change.summary)")
                if let line = try feed?.follow(change.mode, showingOn: live.effects) { logger.info("picture: \(line)") }
            }
            switch step.action {
            case .stop: return
            case .idle(let timeout):
                // Still frame shown, or nothing seen: wait for window events (250 ms at most, to notice power
                // changes) and draw nothing.
                waitMilliseconds = Int32(min(250, max(1, (timeout ?? 1) * 1000)))
            case .wait(let seconds): SDLWindow.sleep(seconds: seconds)
            case .frameDue:
                let drawable = window.drawable
                let now = clock.now
                var inputs = FrameInputs(
                    time: start.duration(to: now).inSeconds, timeDelta: last.duration(to: now).inSeconds, frame: frame,
                    size: SIMD2(Double(drawable.width), Double(drawable.height)), pointer: pointer * drawable.scale,
                    pointerDown: pointerDown)
                last = now
                driver.drive(&inputs, elapsed: start.duration(to: now).inSeconds)
                // A new video frame is drawn even when nothing else changed.
                let fresh = try feed?.refresh(live.effects) ?? false
                guard
                    scheduler.admit(
                        inputs, animated: live.effects.isAnimated || fresh, overlay: live.problem, now: elapsed)
                else {
                    SDLWindow.sleep(seconds: 0.008)  // nothing changed: the display's swap does not pace us
                    continue
                }
                try live.effects.render(inputs, framebuffer: 0, width: drawable.width, height: drawable.height)
                if live.problem != nil { banner.draw(width: drawable.width, height: drawable.height) }
                window.swap()
                frame += 1
            }
        }
    }

    private static func title(_ text: String) -> String { "tiltfx — \(text)" }
}
