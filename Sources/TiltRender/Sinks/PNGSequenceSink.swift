import FoundationEssentials
import TiltCore
import TiltEffects
import TiltGL

/// A numbered PNG sequence in a folder: frame i is `frame-0000i.png` (``FrameSequenceJob/fileName(_:)``).
package final class PNGSequenceSink: OffscreenFrameSink {
    /// The offscreen surface and its renderer.
    package let renderer: OffscreenRenderer
    /// The folder the frames go to.
    package let directory: String
    /// The files written so far.
    package private(set) var written: [String] = []

    /// A sink writing `renderer`'s frames into `directory`, which must exist.
    package init(_ renderer: OffscreenRenderer, directory: String) {
        self.renderer = renderer
        self.directory = directory
    }

    package func present(_ inputs: FrameInputs, frame: Int) throws {
        let path = PathText.join(directory, FrameSequenceJob.fileName(frame))
        try renderer.renderPNG(inputs, to: path)
        written.append(path)
    }

    package func kept(failingAt frame: Int) -> String {
        written.isEmpty ? "no frame was written" : "frames 0 to \(frame - 1) are written in \(directory)"
    }
}
