import CEGL
import CSDL2
import FoundationEssentials
import Logging
import TiltCore
import TiltEffects
import TiltGL

/// An SDL2 window with a current GL ES 3 context: the only place the window runner touches SDL.
///
/// Not thread-safe: SDL's video calls and the GL context belong to the thread that made them.
final class SDLWindow {
    /// What the events drained in one turn of the loop amount to.
    struct Events {
        /// The window was closed, or Escape pressed.
        var quit = false
        /// The window was exposed, resized, shown or hidden.
        var windowChanged = false
        /// The pointer's latest position in window coordinates, if it moved.
        var pointer: SIMD2<Double>?
        /// The pointer button's latest state, if it changed.
        var pointerDown: Bool?
        /// Keys that went down or up, by the browser's key code (keys without one are left out).
        var keys: [SinkEvents.Key] = []
    }

    private let window: OpaquePointer
    private let context: SDL_GLContext

    /// Initialises SDL's video, opens a resizable, high-DPI-aware window and makes a GL ES 3 context current.
    /// - Throws: `RenderError.window` when SDL has no video driver or no GL ES 3 context; a ``DisplayCheck`` problem
    ///   when the driver SDL chose shows nothing.
    /// - Parameter fitsDisplay: Scale a size larger than the display's usable area (its bounds less panels and
    ///   docks, `SDL_GetDisplayUsableBounds`) down to fit it, keeping its aspect ratio.
    init(title: String, width: Int, height: Int, fitsDisplay: Bool = false, logger: Logger? = nil) throws(RenderError) {
        guard SDL_Init(UInt32(SDL_INIT_VIDEO)) == 0 else { throw RenderError.window(Self.sdlError) }
        let driver = SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? "none"
        if let problem = DisplayCheck.problem(driver: driver, environment: ProcessInfo.processInfo.environment) {
            SDL_Quit()
            throw RenderError.argument(problem)
        }
        SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, Int32(SDL_GL_CONTEXT_PROFILE_ES.rawValue))
        SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3)
        SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 0)
        let flags = SDL_WINDOW_OPENGL.rawValue | SDL_WINDOW_RESIZABLE.rawValue | SDL_WINDOW_ALLOW_HIGHDPI.rawValue
        let centered = Int32(SDL_WINDOWPOS_CENTERED_MASK)
        var (width, height) = (width, height)
        var usable = SDL_Rect()
        if fitsDisplay, SDL_GetDisplayUsableBounds(0, &usable) == 0 {
            let fitted = WindowFit.fitted(
                width: width, height: height, within: (Int(usable.w), Int(usable.h)))
            if fitted != (width, height) {
                let note =
                    "window \(width)x\(height) is larger than the display's usable \(usable.w)x\(usable.h); opened at "
                    + "\(fitted.width)x\(fitted.height) (--size sets it)"
                logger?.info("\(note)")
                (width, height) = fitted
            }
        }
        guard let window = SDL_CreateWindow(title, centered, centered, Int32(width), Int32(height), flags) else {
            let error = RenderError.window(Self.sdlError)
            SDL_Quit()
            throw error
        }
        guard let context = SDL_GL_CreateContext(window) else {
            let error = RenderError.window(Self.sdlError)
            SDL_DestroyWindow(window)
            SDL_Quit()
            throw error
        }
        self.window = window
        self.context = context
        SDL_GL_SetSwapInterval(1)
    }

    deinit {
        SDL_GL_DeleteContext(context)
        SDL_DestroyWindow(window)
        SDL_Quit()
    }

    /// The window's title.
    var title: String {
        get { String(cString: SDL_GetWindowTitle(window)) }
        set { SDL_SetWindowTitle(window, newValue) }
    }

    /// Hidden or minimised windows cannot be seen.
    /// The refresh period of the display the window is on, seconds (1/60 when SDL does not know it).
    var refreshPeriod: Double {
        var mode = SDL_DisplayMode()
        let index = SDL_GetWindowDisplayIndex(window)
        guard index >= 0, SDL_GetCurrentDisplayMode(index, &mode) == 0, mode.refresh_rate > 0 else { return 1.0 / 60 }
        return 1 / Double(mode.refresh_rate)
    }

    var visibility: WindowVisibility {
        let hiddenFlags = SDL_WINDOW_HIDDEN.rawValue | SDL_WINDOW_MINIMIZED.rawValue
        return SDL_GetWindowFlags(window) & hiddenFlags != 0 ? .hidden : .visible
    }

    /// The drawable size in pixels and its ratio to window coordinates (above 1 on high-DPI screens).
    var drawable: (width: Int, height: Int, scale: Double) {
        var w: Int32 = 0
        var h: Int32 = 0
        SDL_GL_GetDrawableSize(window, &w, &h)
        var ww: Int32 = 0
        var wh: Int32 = 0
        SDL_GetWindowSize(window, &ww, &wh)
        return (Int(w), Int(h), ww > 0 ? Double(w) / Double(ww) : 1)
    }

    /// Drains the pending events; with `waitMilliseconds` > 0 first blocks that long at most for one to arrive.
    /// - Parameter keysToShader: Escape goes to the shader's keyboard too, and does not quit.
    func events(waitMilliseconds: Int32 = 0, keysToShader: Bool = false) -> Events {
        var result = Events()
        var event = SDL_Event()
        var pending = waitMilliseconds > 0 ? SDL_WaitEventTimeout(&event, waitMilliseconds) : SDL_PollEvent(&event)
        while pending != 0 {
            defer { pending = SDL_PollEvent(&event) }
            switch event.type {
            case SDL_WINDOWEVENT.rawValue: result.windowChanged = true
            case SDL_QUIT.rawValue: result.quit = true
            case SDL_KEYDOWN.rawValue where event.key.keysym.sym == SDLK_ESCAPE.rawValue && !keysToShader:
                result.quit = true
            case SDL_KEYDOWN.rawValue, SDL_KEYUP.rawValue:
                // Auto-repeat changes nothing: a held key is held.
                guard event.key.repeat == 0, let code = ShadertoyKeyCode.browserCode(sdl: event.key.keysym.sym) else {
                    break
                }
                result.keys.append(SinkEvents.Key(code: code, down: event.type == SDL_KEYDOWN.rawValue))
            case SDL_MOUSEMOTION.rawValue: result.pointer = SIMD2(Double(event.motion.x), Double(event.motion.y))
            case SDL_MOUSEBUTTONDOWN.rawValue: result.pointerDown = true
            case SDL_MOUSEBUTTONUP.rawValue: result.pointerDown = false
            default: break
            }
        }
        return result
    }

    /// Shows what was drawn (waits for the display's refresh: the swap interval is 1).
    func swap() {
        SDL_GL_SwapWindow(window)
    }

    /// Sleeps without handling events.
    static func sleep(seconds: Double) {
        SDL_Delay(UInt32(max(0, seconds) * 1000))
    }

    private static var sdlError: String { String(cString: SDL_GetError()) }
}
