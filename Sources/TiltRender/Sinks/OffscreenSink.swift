import TiltEffects
import TiltGL

/// Frames drawn offscreen and waited for, kept nowhere: `tiltfx run --headless` (power gating with no display) and
/// `tiltfx bench`.
public final class OffscreenSink: OffscreenFrameSink {
    /// The offscreen surface and its renderer.
    public let renderer: OffscreenRenderer

    /// A sink drawing with `renderer`.
    public init(_ renderer: OffscreenRenderer) { self.renderer = renderer }

    public func present(_ inputs: FrameInputs, frame: Int) throws { try renderer.drawAndWait(inputs) }
}

/// A sink that draws into an ``OffscreenRenderer``: its renderer and size are the offscreen surface's.
public protocol OffscreenFrameSink: FrameSink {
    /// The offscreen surface and its renderer.
    var renderer: OffscreenRenderer { get }
}

extension OffscreenFrameSink {
    public var effects: EffectRenderer { renderer.effects }
    public var size: SIMD2<Int> { SIMD2(renderer.width, renderer.height) }
}
