import TiltCore
import TiltEffects
import TiltGL

/// Where the frames of a ``FrameLoop`` go: a window, an offscreen surface, a PNG sequence, a video file, a benchmark.
///
/// A sink owns its GL context and the ``EffectRenderer`` made in it; the loop decides when a frame is due and what
/// it shows (its ``FrameInputs``), the sink draws it and puts it where it belongs. A new kind of output (a desktop
/// wallpaper, say) is one more sink: the pacing, power gating, motion and moving pictures come with the loop.
///
/// Sinks are used on the thread that made them (their GL context is current there).
package protocol FrameSink: AnyObject {
    /// The renderer drawing into this sink (replaced when a live sink reloads its preset).
    var effects: EffectRenderer { get }
    /// The size of a frame, in pixels.
    var size: SIMD2<Int> { get }
    /// Whether what the sink draws reads the time, so every frame differs (default: ``effects``' answer; a sink
    /// with several renderers asks them all).
    var isAnimated: Bool { get }
    /// The motion inputs what the sink draws reads (default: ``effects``' programs'); render-on-change ignores the
    /// rest.
    var motionSources: Set<BuiltinUniform.Source> { get }
    /// Whether anyone can see the output (a window that is hidden or minimised cannot); offscreen: always.
    var visibility: WindowVisibility { get }
    /// Seconds from the end of ``present(_:frame:)`` to the frame's light, as the sink expects it: a display's
    /// refresh period (the swap queues the frame for the next scan-out), or what presentation feedback measured;
    /// 0 offscreen. Motion prediction aims at the end of it.
    var presentationDelay: Double { get }
    /// How long the loop may block, at most, while no frame is due, before it looks at the power state again.
    var idleWait: Double { get }
    /// Whether ``poll(waitSeconds:)`` waits for events of the sink's own (a window's); otherwise the loop waits on
    /// the motion feed.
    var hasEvents: Bool { get }
    /// Takes what happened since the last call (a window's events, a reloaded preset); waits up to `waitSeconds`
    /// for something to happen when ``hasEvents``.
    func poll(waitSeconds: Double) -> SinkEvents
    /// Draws the frame `inputs` describes (the `frame`-th drawn) and shows, writes or encodes it.
    func present(_ inputs: FrameInputs, frame: Int) throws
    /// Ends the output (an encoder's end of stream): called once, after the last frame, when no error came before.
    func finish() throws
    /// Every renderer that draws a frame (the wallpaper has one per output), for the media of Shadertoy channels:
    /// ``effects`` by default.
    var channelRenderers: [EffectRenderer] { get }
    /// Says what is left of the output when the run fails at `frame` (for the error message): e.g. "frames 0 to 4
    /// are written in out/".
    func kept(failingAt frame: Int) -> String
}

extension FrameSink {
    package var isAnimated: Bool { effects.isAnimated }
    package var motionSources: Set<BuiltinUniform.Source> { effects.motionSources }
    package var visibility: WindowVisibility { .visible }
    package var idleWait: Double { 1 }
    package var presentationDelay: Double { 0 }
    package var hasEvents: Bool { false }
    package func poll(waitSeconds: Double) -> SinkEvents { SinkEvents() }
    package func finish() throws {}
    package func kept(failingAt frame: Int) -> String { "no output is kept" }
    package var channelRenderers: [EffectRenderer] { [effects] }
}

/// What a sink saw between two turns of the loop.
package struct SinkEvents: Sendable, Hashable {
    /// The user asked to stop (the window was closed, Escape).
    package var quit = false
    /// The output must be drawn again even with the same inputs (exposed, resized, an error banner shown).
    package var invalidated = false
    /// Part of the output missed the last frame (a wallpaper's output that was not ready, just came, or resumed):
    /// the next due frame is drawn even when its inputs are those of the last one.
    package var redraw = false
    /// The preset was reloaded: `true` with a new renderer, `false` when the reload failed (the last good one is
    /// kept); `nil`: no reload.
    package var reloaded: Bool?
    /// The pointer's latest position in frame pixels, when the sink has one and it moved.
    ///
    /// (Two plain doubles rather than an optional `SIMD2<Double>`: Swift 6.3's debug builds read such a field of
    /// this struct with an aligned SSE load from a stack slot that is not 16-byte aligned, and crash.)
    package var pointer: Point?
    /// Whether the pointer's button is held, when it changed.
    package var pointerDown: Bool?
    /// The display's rotation changed to this.
    package var screenRotation: ScreenRotation?
    /// Keys that went down (`true`) or up, in order, by the browser's key code (Shadertoy's keyboard channel).
    package var keys: [Key] = []

    /// No events.
    package init() {}

    /// A key going down or up.
    package struct Key: Sendable, Hashable {
        /// The browser's `keyCode` (``ShadertoyKeyCode``).
        package var code: Int
        package var down: Bool

        package init(code: Int, down: Bool) {
            self.code = code
            self.down = down
        }
    }

    /// A position in frame pixels.
    package struct Point: Sendable, Hashable {
        /// Pixels from the left.
        package var x: Double
        /// Pixels from the top.
        package var y: Double

        /// A point.
        package init(x: Double, y: Double) {
            self.x = x
            self.y = y
        }
    }
}
