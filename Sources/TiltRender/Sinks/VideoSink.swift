import TiltEffects
import TiltGL
import TiltMedia

/// Frames encoded into a video file (WebM, MP4, GIF) by a ``VideoEncoder``, which renames it into place at the end.
public final class VideoSink: OffscreenFrameSink {
    /// The offscreen surface and its renderer.
    public let renderer: OffscreenRenderer
    /// The encoder, which knows the video file (``VideoEncoder/path``).
    public let encoder: VideoEncoder

    /// A sink encoding `renderer`'s frames with `encoder`.
    public init(_ renderer: OffscreenRenderer, encoder: VideoEncoder) {
        self.renderer = renderer
        self.encoder = encoder
    }

    public func present(_ inputs: FrameInputs, frame: Int) throws {
        try encoder.append(rgba: try renderer.render(inputs))
    }

    public func finish() throws { try encoder.finish() }

    public func kept(failingAt frame: Int) -> String { "the video \(encoder.path) is not written" }
}
