import TiltEffects
import TiltGL

/// One PNG file, replaced atomically each time a frame is drawn into it: the still render (`tiltfx render --out
/// FILE.png`) and its `--watch`.
public final class PNGFileSink: OffscreenFrameSink {
    /// The offscreen surface and its renderer.
    public let renderer: OffscreenRenderer
    /// The file.
    public let path: String
    /// Told as each stage of a frame begins (`drawing`, `reading back`, `writing PNG`).
    private let stage: (String) -> Void

    /// A sink writing `renderer`'s frames to `path`.
    public init(_ renderer: OffscreenRenderer, path: String, stage: @escaping (String) -> Void = { _ in }) {
        self.renderer = renderer
        self.path = path
        self.stage = stage
    }

    public func present(_ inputs: FrameInputs, frame: Int) throws {
        try renderer.renderPNG(inputs, to: path, stage: stage)
    }

    public func kept(failingAt frame: Int) -> String { "\(path) is not written" }
}
