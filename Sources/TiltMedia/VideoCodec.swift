/// A video compression format a ``VideoEncoder`` can write, and the GStreamer encoders that make it.
package enum VideoCodec: String, CaseIterable, Sendable {
    /// VP8 (`vp8enc`, libvpx): WebM's first codec; every browser plays it.
    case vp8
    /// VP9 (`vp9enc`, libvpx): about half VP8's size for the same quality; every current browser plays it.
    case vp9
    /// H.264 (`x264enc`): what every player and phone plays; in Debian's non-free-ish "ugly" plugin set.
    case h264

    /// The name people know it by: `VP9`, `H.264`.
    package var title: String {
        switch self {
        case .vp8: "VP8"
        case .vp9: "VP9"
        case .h264: "H.264"
        }
    }

    /// A GStreamer element that encodes this codec, with the settings tilt gives it.
    package struct Encoder: Sendable, Equatable {
        /// The element's factory name, e.g. `vp9enc`.
        package let element: String
        /// The Debian package that installs it.
        package let package: String
        /// Its properties as `gst-launch` writes them, for `threads` encoding threads and at most `bitrate`
        /// bits a second.
        let properties: @Sendable (_ threads: Int, _ bitrate: Int) -> String

        package static func == (a: Encoder, b: Encoder) -> Bool { a.element == b.element }
    }

    /// The encoders of this codec in order of preference; the first one installed is used.
    ///
    /// The settings favour speed at good quality: libvpx in real-time mode (`deadline=1`) with a high `cpu-used`,
    /// which encodes 720p several times faster than its defaults, at constant quality (`end-usage=cq`) capped at
    /// ``bitrateCap(width:height:fps:)``, rather than libvpx's default 256 kbit/s, which turns a render's smooth
    /// gradients into blocks; x264 with the `faster` preset at constant quality 20.
    package var encoders: [Encoder] {
        switch self {
        case .vp8:
            [
                Encoder(element: "vp8enc", package: "gstreamer1.0-plugins-good") {
                    "deadline=1 cpu-used=8 end-usage=cq cq-level=10 target-bitrate=\($1) threads=\($0)"
                }
            ]
        case .vp9:
            [
                Encoder(element: "vp9enc", package: "gstreamer1.0-plugins-good") {
                    "deadline=1 cpu-used=6 row-mt=true end-usage=cq cq-level=20 target-bitrate=\($1) threads=\($0)"
                }
            ]
        case .h264:
            [
                Encoder(element: "x264enc", package: "gstreamer1.0-plugins-ugly") { threads, _ in
                    "speed-preset=faster pass=qual quantizer=20 threads=\(threads)"
                }
            ]
        }
    }

    /// The most bits a second a VP8 or VP9 stream may take: 0.15 bits a pixel a frame (4.1 Mbit/s at 1280×720 and
    /// 30 fps), at least 200 kbit/s. Constant quality rarely needs it; it bounds a noisy preset's file.
    package static func bitrateCap(width: Int, height: Int, fps: Double) -> Int {
        Int(min(2_000_000_000, max(200_000, Double(width * height) * fps * 0.15)))
    }

    /// The first of ``encoders`` that is installed, or `nil`.
    package var installedEncoder: Encoder? {
        encoders.first { MediaFramework.hasElement($0.element) }
    }

    /// Whether the codec needs an even width and height: H.264's players decode 4:2:0 only, which halves both.
    /// (libvpx pads odd sizes itself.)
    package var needsEvenSize: Bool { self == .h264 }
}
