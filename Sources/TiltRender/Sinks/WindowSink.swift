import Logging
import TiltCore
import TiltEffects
import TiltGL

/// `tiltfx run`'s window: an SDL2 window (X11 or Wayland) whose preset reloads when its files change, with an error
/// banner over the last good shader when a reload fails, and the display's rotation followed (X11 RandR) when asked.
final class WindowSink: ErrorOverlaySink {
    private let window: SDLWindow
    private var live: LivePreset
    private let banner: ErrorBanner
    private let display: DisplayRotation?
    private var rotation: ScreenRotation
    private var nextRotationCheck = 1.0
    private let clock = ContinuousClock()
    private let opened: ContinuousClock.Instant
    private let logger: Logger
    /// Escape goes to the shader's keyboard and does not quit (`--keys-to-shader`).
    private let keysToShader: Bool

    /// Opens the window (its GL context current on this thread) and compiles `preset` in it.
    /// - Parameter screenRotation: `auto` follows the display's rotation where X11 RandR tells it.
    init(
        preset: Preset, picture: PictureContent?, width: Int, height: Int, screenRotation: ScreenRotationChoice,
        fitsDisplay: Bool = false, keysToShader: Bool = false, logger: Logger
    ) throws {
        self.keysToShader = keysToShader
        window = try SDLWindow(
            title: Self.title(preset.name), width: width, height: height, fitsDisplay: fitsDisplay, logger: logger)
        logger.info("window open: \(GLInfo.renderer), \(GLInfo.version)")
        live = try LivePreset(preset, picture: picture)
        banner = try ErrorBanner()
        display = screenRotation == .auto ? DisplayRotation() : nil
        rotation = screenRotation.initial(display: display)
        if screenRotation == .auto {
            let how = display == nil ? " (no X11 RandR to read it from; pass --screen-rotation)" : ", followed"
            logger.info("screen rotation: \(rotation.degrees)°\(how)")
        }
        opened = clock.now
        self.logger = logger
    }

    /// The rotation the display had when the window opened (for the daemon's subscription).
    var initialRotation: ScreenRotation { rotation }

    var effects: EffectRenderer { live.effects }
    var size: SIMD2<Int> {
        let drawable = window.drawable
        return SIMD2(drawable.width, drawable.height)
    }
    var visibility: WindowVisibility { window.visibility }
    /// 250 ms at most without looking at the power state while the still frame is shown.
    var idleWait: Double { 0.25 }
    /// The swap waits for the refresh and the frame is scanned out during the next one.
    var presentationDelay: Double { window.refreshPeriod }
    var hasEvents: Bool { true }
    var overlay: String? { live.problem }

    func poll(waitSeconds: Double) -> SinkEvents {
        let wait = waitSeconds > 0 ? Int32(max(1, waitSeconds * 1000)) : 0
        let events = window.events(waitMilliseconds: wait, keysToShader: keysToShader)
        var result = SinkEvents()
        result.quit = events.quit
        result.invalidated = events.windowChanged
        if let pointer = events.pointer {
            let scale = window.drawable.scale
            result.pointer = SinkEvents.Point(x: pointer.x * scale, y: pointer.y * scale)
        }
        result.pointerDown = events.pointerDown
        result.keys = events.keys
        if events.quit { return result }
        result.reloaded = live.reloadIfChanged(logger: logger)
        switch result.reloaded {
        case true?: window.title = Self.title(live.preset.name)
        case false?:
            banner.show("reload failed, last good shader kept:\n\(live.problem ?? "")")
            let firstLine = live.problem?.split(separator: "\n").dropFirst().first ?? ""
            window.title = Self.title("ERROR \(firstLine)")
        case nil: break
        }
        let elapsed = opened.duration(to: clock.now).inSeconds
        if let display, elapsed >= nextRotationCheck {
            nextRotationCheck = elapsed + 1
            if let current = display.current(), current != rotation {
                rotation = current
                result.screenRotation = current
                logger.info("screen rotation: \(current.degrees)°")
            }
        }
        return result
    }

    func present(_ inputs: FrameInputs, frame: Int) throws {
        let drawable = window.drawable
        try live.effects.render(inputs, framebuffer: 0, width: drawable.width, height: drawable.height)
        if live.problem != nil { banner.draw(width: drawable.width, height: drawable.height) }
        window.swap()
    }

    private static func title(_ text: String) -> String { "tiltfx — \(text)" }
}
