import TiltCore

/// What can go wrong with a media pipeline, each case saying what and what to do.
public enum MediaError: Error, Equatable, CustomStringConvertible {
    /// GStreamer itself would not start.
    case frameworkUnavailable(String)
    /// No encoder for `codec` is installed; `alternatives` are the container's other codecs that are.
    case noEncoder(codec: VideoCodec, container: VideoContainer, alternatives: [VideoCodec])
    /// A GStreamer element the container needs (its muxer) is not installed.
    case missingElement(name: String, package: String, purpose: String)
    /// The request cannot be encoded as asked (a codec the container cannot hold, a size the codec refuses); the
    /// text says what and what to do.
    case unsupported(String)
    /// The output file was refused or could not be created or finished.
    case output(OutputFileError)
    /// The disk filled up while `frames` frames had been handed to the encoder; the partial file was removed.
    case diskFull(path: String, frames: Int)
    /// The encoding pipeline failed part way (`reason` is GStreamer's message); the partial file was removed.
    case encoding(path: String, reason: String)
    /// A video could not be read back (`reason` is GStreamer's message).
    case decoding(path: String, reason: String)

    public var description: String {
        switch self {
        case .frameworkUnavailable(let reason):
            return "GStreamer would not start: \(reason); install the packages scripts/bootstrap lists"
        case .noEncoder(let codec, let container, let alternatives):
            let install = codec.encoders.map { "\($0.element) (Debian: apt install \($0.package))" }
            var text =
                "no \(codec.title) encoder is installed for .\(container.rawValue): GStreamer has no "
                + install.joined(separator: " or ") + "; install it"
            if let other = alternatives.first {
                text += ", or pass --codec \(other.rawValue) for an .\(container.rawValue) with \(other.title)"
            }
            if container != .webm { text += ", or write a .webm file (VP9)" }
            return text
        case .missingElement(let name, let package, let purpose):
            return "the GStreamer element \(name) (\(purpose)) is not installed; install it (Debian: apt install "
                + "\(package))"
        case .unsupported(let text):
            return text
        case .output(let error):
            return error.description
        case .diskFull(let path, let frames):
            return "cannot write \(path): the disk is full (No space left on device) after \(frames) frames; the "
                + "partial video was removed; free some space or write the video elsewhere"
        case .encoding(let path, let reason):
            return "cannot encode \(path): \(reason); the partial video was removed"
        case .decoding(let path, let reason):
            return "cannot decode \(path): \(reason)"
        }
    }
}
