/// Where moving pictures come from: a video file, a V4L2 camera, or any GStreamer pipeline.
public enum VideoInput: Sendable, Hashable, CustomStringConvertible {
    /// A video file GStreamer can play (`decodebin` picks the demuxer and decoder), played in a loop.
    case file(String)
    /// A V4L2 camera, by device path (`v4l2src device=…`).
    case camera(String)
    /// A GStreamer pipeline description (`gst-launch-1.0` syntax, e.g. `videotestsrc pattern=ball`), to which
    /// `videoconvert ! video/x-raw,format=RGBA ! appsink` is appended.
    case pipeline(String)

    /// The camera `--camera` opens when it names none.
    public static let defaultCamera = "/dev/video0"

    /// Whether the input runs on its own clock and cannot be paused and resumed where it was (a camera, a pipeline):
    /// a power gate closes it, where a file is only paused.
    public var isLive: Bool {
        switch self {
        case .file: false
        case .camera, .pipeline: true
        }
    }

    /// How messages name it: `video FILE`, `camera DEVICE`, `pipeline 'DESCRIPTION'`.
    public var description: String {
        switch self {
        case .file(let path): "video \(path)"
        case .camera(let device): "camera \(device)"
        case .pipeline(let text): "pipeline '\(text)'"
        }
    }
}
