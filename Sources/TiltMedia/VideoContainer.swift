/// A video file format ``VideoEncoder`` writes, chosen by the output's extension.
package enum VideoContainer: String, CaseIterable, Sendable {
    /// WebM (`.webm`): VP9 or VP8, muxed by `webmmux`.
    case webm
    /// MP4 (`.mp4`): H.264, muxed by `mp4mux`. (Debian 12's `mp4mux` takes VP9 too, but without `vp9parse`, in
    /// the bad plugins, it writes a file that `qtdemux` calls corrupt; so VP9 goes in WebM.)
    case mp4
    /// An animated GIF (`.gif`): 256 colours a frame, encoded by tilt itself (``GIFWriter``), no GStreamer.
    case gif

    /// The container named by `path`'s extension (any case), or `nil` for another (`.png`, none).
    package init?(path: String) {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        self.init(rawValue: name[name.index(after: dot)...].lowercased())
    }

    /// The codecs this container holds, the default first. A GIF has no codec to choose.
    package var codecs: [VideoCodec] {
        switch self {
        case .webm: [.vp9, .vp8]
        case .mp4: [.h264]
        case .gif: []
        }
    }

    /// The codec used when none is asked for: VP9 in WebM, H.264 in MP4 (what every player plays).
    package var defaultCodec: VideoCodec? { codecs.first }

    /// The GStreamer muxer and its Debian package (`nil` for GIF).
    var muxer: (element: String, package: String)? {
        switch self {
        case .webm: ("webmmux", "gstreamer1.0-plugins-good")
        case .mp4: ("mp4mux", "gstreamer1.0-plugins-good")
        case .gif: nil
        }
    }
}
