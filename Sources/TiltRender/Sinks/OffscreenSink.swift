import TiltEffects
import TiltGL

/// Frames drawn offscreen and waited for, kept nowhere: `tiltfx run --headless` (power gating with no display) and
/// `tiltfx bench`.
public final class OffscreenSink: FrameSink {
    /// The offscreen surface and its renderer.
    public let renderer: OffscreenRenderer

    /// A sink drawing with `renderer`.
    public init(_ renderer: OffscreenRenderer) { self.renderer = renderer }

    public var effects: EffectRenderer { renderer.effects }
    public var size: SIMD2<Int> { SIMD2(renderer.width, renderer.height) }

    public func present(_ inputs: FrameInputs, frame: Int) throws { try renderer.drawAndWait(inputs) }
}
