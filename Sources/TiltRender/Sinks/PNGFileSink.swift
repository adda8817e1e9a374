import TiltEffects
import TiltGL

/// One PNG file, replaced atomically each time a frame is drawn into it: the still render (`tiltfx render --out
/// FILE.png`) and its `--watch`.
package final class PNGFileSink: OffscreenFrameSink {
    /// The offscreen surface and its renderer.
    package let renderer: OffscreenRenderer
    /// The file.
    package let path: String
    /// Told as each stage of a frame begins (`drawing`, `reading back`, `writing PNG`).
    private let stage: (String) -> Void

    /// A sink writing `renderer`'s frames to `path`.
    package init(_ renderer: OffscreenRenderer, path: String, stage: @escaping (String) -> Void = { _ in }) {
        self.renderer = renderer
        self.path = path
        self.stage = stage
    }

    package func present(_ inputs: FrameInputs, frame: Int) throws {
        try renderer.renderPNG(inputs, to: path, stage: stage)
    }

    package func kept(failingAt frame: Int) -> String { "\(path) is not written" }
}
