import CEGL
import CSDL2
import Foundation
import Logging
import TiltCore
import TiltEffects

/// `tiltfx run`: an SDL2 window (X11 or Wayland) drawing a preset with the same `EffectRenderer` as the headless
/// path, driven by `tiltd`, or by the pointer when no daemon answers. Watches the preset and reloads it on change.
public struct WindowRunner: Sendable {
    /// The preset to show.
    public var preset: Preset
    /// Initial window width.
    public var width: Int
    /// Initial window height.
    public var height: Int
    /// The daemon's socket (nil: default).
    public var socketPath: String?
    /// Stop after this many seconds (for tests and demos); nil runs until the window closes.
    public var duration: Double?
    /// The power policy: full, capped or still by power state; nothing while hidden.
    public var policy: PowerPolicy

    /// Creates a runner.
    public init(
        preset: Preset, width: Int, height: Int, socketPath: String?, duration: Double? = nil,
        policy: PowerPolicy = .automatic
    ) {
        self.preset = preset
        self.width = width
        self.height = height
        self.socketPath = socketPath
        self.duration = duration
        self.policy = policy
    }

    /// Opens the window and runs until it is closed (or Escape, or `duration`).
    /// - Throws: `RenderError.window` when SDL has no video driver or GL ES 3 context; compile errors of the first
    ///   load.
    public func run(logger: Logger) throws {
        guard SDL_Init(UInt32(SDL_INIT_VIDEO)) == 0 else { throw RenderError.window(Self.sdlError) }
        defer { SDL_Quit() }
        SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, Int32(SDL_GL_CONTEXT_PROFILE_ES.rawValue))
        SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3)
        SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 0)
        let flags = SDL_WINDOW_OPENGL.rawValue | SDL_WINDOW_RESIZABLE.rawValue | SDL_WINDOW_ALLOW_HIGHDPI.rawValue
        guard
            let window = SDL_CreateWindow(
                "tiltfx — \(preset.name)", Int32(SDL_WINDOWPOS_CENTERED_MASK), Int32(SDL_WINDOWPOS_CENTERED_MASK),
                Int32(width), Int32(height), flags)
        else { throw RenderError.window(Self.sdlError) }
        defer { SDL_DestroyWindow(window) }
        guard let context = SDL_GL_CreateContext(window) else { throw RenderError.window(Self.sdlError) }
        defer { SDL_GL_DeleteContext(context) }
        SDL_GL_SetSwapInterval(1)
        logger.info("window open: \(GLInfo.renderer), \(GLInfo.version)")

        var effects = try EffectRenderer(preset: preset)
        var current = preset
        var watcher = try FileWatcher(files: current.files)
        var problem: String?
        let banner = try ErrorBanner()
        let daemon = DaemonMotion(socketPath: socketPath, rate: policy.fullMotionRate)
        defer { daemon.close() }
        var gate = PowerGate(policy: policy)
        var lastDrawn: FrameInputs?
        var lastProblem: String?
        var announcedPointer = false
        var announcedDaemon = false

        let clock = ContinuousClock()
        let start = clock.now
        var last = start
        var frame = 0
        var pointer = SIMD2<Double>(Double(width) / 2, Double(height) / 2)
        var pointerDown = false
        var running = true
        var event = SDL_Event()
        var waitMilliseconds: Int32 = 0
        while running {
            if let duration, Self.seconds(start.duration(to: clock.now)) > duration { break }
            // Still or hidden: block on window events (250 ms at most, to notice power changes); else just drain.
            var pending = waitMilliseconds > 0 ? SDL_WaitEventTimeout(&event, waitMilliseconds) : SDL_PollEvent(&event)
            waitMilliseconds = 0
            while pending != 0 {
                defer { pending = SDL_PollEvent(&event) }
                switch event.type {
                case SDL_WINDOWEVENT.rawValue: gate.invalidate()
                case SDL_QUIT.rawValue: running = false
                case SDL_KEYDOWN.rawValue where event.key.keysym.sym == SDLK_ESCAPE.rawValue: running = false
                case SDL_MOUSEMOTION.rawValue: pointer = SIMD2(Double(event.motion.x), Double(event.motion.y))
                case SDL_MOUSEBUTTONDOWN.rawValue: pointerDown = true
                case SDL_MOUSEBUTTONUP.rawValue: pointerDown = false
                default: break
                }
            }
            if watcher.drain() {
                gate.invalidate()  // a still frame shows the new shader too
                let began = clock.now
                do {
                    let reloaded = try Preset.load(directory: current.directory)
                    effects = try EffectRenderer(preset: reloaded)
                    lastDrawn = nil
                    if reloaded.files != current.files { watcher = try FileWatcher(files: reloaded.files) }
                    current = reloaded
                    problem = nil
                    SDL_SetWindowTitle(window, "tiltfx — \(current.name)")
                    logger.info("reloaded '\(current.name)' in \(began.duration(to: clock.now))")
                } catch {
                    problem = "\(error)"
                    banner.show("reload failed, last good shader kept:\n\(error)")
                    logger.error("reload failed, keeping the last good shader:\n\(error)")
                    let firstLine = problem?.split(separator: "\n").dropFirst().first ?? ""
                    SDL_SetWindowTitle(window, "tiltfx — ERROR \(firstLine)")
                }
            }
            let windowFlags = SDL_GetWindowFlags(window)
            let hidden = windowFlags & (SDL_WINDOW_HIDDEN.rawValue | SDL_WINDOW_MINIMIZED.rawValue) != 0
            let elapsed = Self.seconds(start.duration(to: clock.now))
            let visibility: WindowVisibility = hidden ? .hidden : .visible
            if let decision = gate.update(power: daemon.snapshot.power, window: visibility, now: elapsed) {
                if let rate = decision.motionRate { daemon.setRate(rate) } else { daemon.setWatching(false) }
                logger.info("power: \(decision.summary)")
                lastDrawn = nil
            }
            guard let delay = gate.delay(now: elapsed, displayRate: nil) else {
                waitMilliseconds = 250  // still frame shown, or nothing seen: wait for events, draw nothing
                continue
            }
            if delay > 0 {
                SDL_Delay(UInt32(delay * 1000))
                continue
            }
            var w: Int32 = 0
            var h: Int32 = 0
            SDL_GL_GetDrawableSize(window, &w, &h)
            var ww: Int32 = 0
            var wh: Int32 = 0
            SDL_GetWindowSize(window, &ww, &wh)
            let scale = ww > 0 ? Double(w) / Double(ww) : 1
            let now = clock.now
            var inputs = FrameInputs(
                time: Self.seconds(start.duration(to: now)), timeDelta: Self.seconds(last.duration(to: now)),
                frame: frame, size: SIMD2(Double(w), Double(h)), pointer: pointer * scale, pointerDown: pointerDown)
            last = now
            let snapshot = daemon.snapshot
            if snapshot.connected, let motion = snapshot.frame {
                inputs.apply(motion)
                if !announcedDaemon {
                    logger.info("driven by tiltd at \(daemon.socketPath)")
                    announcedDaemon = true
                    announcedPointer = false
                }
            } else {
                // No daemon: the pointer is the tilt, so the highlight follows it (±0.5 rad at the window's edges).
                let n = (pointer * scale) / SIMD2(Double(max(w, 1)), Double(max(h, 1))) - 0.5
                inputs.tilt = SIMD2(-n.y, -n.x)
                if !announcedPointer && clock.now > start + .seconds(1) {
                    let why = snapshot.lastProblem.map { " (\($0))" } ?? ""
                    logger.notice("no tiltd at \(daemon.socketPath)\(why): using the pointer as tilt")
                    announcedPointer = true
                    announcedDaemon = false
                }
            }
            // Skip frames when nothing the effect reads has changed (power gating's cheapest step).
            var key = inputs
            key.time = 0
            key.timeDelta = 0
            key.frame = 0
            if !effects.isAnimated && key == lastDrawn && problem == lastProblem && gate.decision?.mode != .still {
                gate.skipped(now: elapsed)
                SDL_Delay(8)
                continue
            }
            lastDrawn = key
            lastProblem = problem
            try effects.render(inputs, framebuffer: 0, width: Int(w), height: Int(h))
            if problem != nil { banner.draw(width: Int(w), height: Int(h)) }
            SDL_GL_SwapWindow(window)
            frame += 1
            gate.drew(now: elapsed)
        }
    }

    private static var sdlError: String { String(cString: SDL_GetError()) }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }
}
