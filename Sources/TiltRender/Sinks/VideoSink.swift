import TiltEffects
import TiltGL
import TiltMedia

/// Frames encoded into a video file (WebM, MP4, GIF) by a ``VideoEncoder``, which renames it into place at the end.
package final class VideoSink: OffscreenFrameSink {
    /// The offscreen surface and its renderer.
    package let renderer: OffscreenRenderer
    /// The encoder, which knows the video file (``VideoEncoder/path``).
    package let encoder: VideoEncoder

    /// A sink encoding `renderer`'s frames with `encoder`.
    package init(_ renderer: OffscreenRenderer, encoder: VideoEncoder) {
        self.renderer = renderer
        self.encoder = encoder
    }

    package func present(_ inputs: FrameInputs, frame: Int) throws {
        try encoder.append(rgba: try renderer.render(inputs))
    }

    package func finish() throws { try encoder.finish() }

    package func kept(failingAt frame: Int) -> String { "the video \(encoder.path) is not written" }
}
