import TiltEffects
import TiltGL
import TiltMedia

/// Frames encoded into a video file (WebM, MP4, GIF) by a ``VideoEncoder``, which renames it into place at the end.
public final class VideoSink: OffscreenFrameSink {
    /// The offscreen surface and its renderer.
    public let renderer: OffscreenRenderer
    /// The encoder.
    public let encoder: VideoEncoder
    /// The video file.
    public let path: String

    /// A sink encoding `renderer`'s frames with `encoder` into `path`.
    public init(_ renderer: OffscreenRenderer, encoder: VideoEncoder, path: String) {
        self.renderer = renderer
        self.encoder = encoder
        self.path = path
    }

    public func present(_ inputs: FrameInputs, frame: Int) throws {
        try encoder.append(rgba: try renderer.render(inputs))
    }

    public func finish() throws { try encoder.finish() }

    public func kept(failingAt frame: Int) -> String { "the video \(path) is not written" }
}
