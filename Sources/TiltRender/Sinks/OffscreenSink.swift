import TiltEffects
import TiltGL

/// Frames drawn offscreen and waited for, kept nowhere: `tiltfx run --headless` (power gating with no display) and
/// `tiltfx bench`.
package final class OffscreenSink: OffscreenFrameSink {
    /// The offscreen surface and its renderer.
    package let renderer: OffscreenRenderer

    /// A sink drawing with `renderer`.
    package init(_ renderer: OffscreenRenderer) { self.renderer = renderer }

    package func present(_ inputs: FrameInputs, frame: Int) throws { try renderer.drawAndWait(inputs) }
}

/// A sink that draws into an ``OffscreenRenderer``: its renderer and size are the offscreen surface's.
package protocol OffscreenFrameSink: FrameSink {
    /// The offscreen surface and its renderer.
    var renderer: OffscreenRenderer { get }
}

extension OffscreenFrameSink {
    package var effects: EffectRenderer { renderer.effects }
    package var size: SIMD2<Int> { SIMD2(renderer.width, renderer.height) }
}
