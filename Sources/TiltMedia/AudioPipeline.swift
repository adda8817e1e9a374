import CGStreamer

/// A GStreamer pipeline that ends in mono 32-bit float samples at a rate in an app sink named `tilt_audio_sink`: the
/// part ``AudioTrack`` and ``AudioCapture`` share. It owns the pipeline (a ``MediaPipeline``), its bus and its sink,
/// and reads the bus by message type and GStreamer's error codes, never by the words.
final class AudioPipeline {
    /// What the bus said.
    enum Message {
        /// The stream ended.
        case endOfStream
        /// An element failed.
        case error(BusError)
        /// An element warned (autoaudiosrc, when a capture element it tried would not open).
        case warning(String)
        /// decodebin found no decoder for a stream of this media type (`audio/mpeg`, `video/x-vp8`).
        case missingDecoder(String)
    }

    /// GStreamer's name for 32-bit floats in this machine's byte order.
    static let floatFormat: String = {
        #if _endian(big)
            "F32BE"
        #else
            "F32LE"
        #endif
    }()

    /// The conversion appended to every source: any channel layout mixed down to one channel (audioconvert averages
    /// them), any rate resampled to `rate`, then the app sink. `live` sinks drop the oldest buffers past `maxBuffers`
    /// (a reader that stalls never stalls the capture); a file's sink holds the decoder back instead.
    static func conversion(rate: Int, live: Bool) -> String {
        let sink =
            live
            ? "appsink name=tilt_audio_sink max-buffers=64 drop=true sync=false enable-last-sample=false"
            : "appsink name=tilt_audio_sink max-buffers=32 drop=false sync=false enable-last-sample=false"
        return "audioconvert ! audioresample ! audio/x-raw,format=\(floatFormat),layout=interleaved,channels=1,"
            + "rate=\(rate) ! \(sink)"
    }

    /// The pipeline, which owns its elements.
    let pipeline: MediaPipeline
    /// The app sink `tilt_audio_sink` (its reference is held by ``pipeline``).
    private let sink: UnsafeMutablePointer<GstElement>
    /// The pipeline's bus (a reference of this object's own).
    private let bus: UnsafeMutablePointer<GstBus>

    /// Builds `description` (not yet started).
    /// - Throws: the parser's message: an unknown element, a bad property, a link that fails.
    init(_ description: String) throws(MediaPipelineError) {
        pipeline = try MediaPipeline(description)
        guard let sink = pipeline.child("tilt_audio_sink") else {
            throw MediaPipelineError(reason: "the pipeline has no app sink named tilt_audio_sink")
        }
        self.sink = sink
        bus = gst_element_get_bus(pipeline.element)
    }

    deinit {
        pipeline.stop()
        tilt_gst_object_unref(UnsafeMutableRawPointer(bus))
    }

    /// Starts the pipeline.
    /// - Returns: `false` when GStreamer refused at once (the bus then holds the error).
    func play() -> Bool { pipeline.play() }

    /// Stops the pipeline and releases what it holds (a file, a capture device).
    func stop() { pipeline.stop() }

    /// Whether the sink has had its end of stream and holds no more samples.
    var isAtEnd: Bool { gst_app_sink_is_eos(tilt_gst_app_sink(sink)) != 0 }

    /// Whether an autoaudiosrc in the pipeline found no capture element that opens and plays its silent stand-in.
    var usesFallbackAudioSource: Bool { tilt_gst_bin_has_fallback_audio_source(tilt_gst_bin(pipeline.element)) != 0 }

    /// Whether the element named `name` is an audio source (its factory's class is `Source/Audio`).
    func isAudioSource(_ name: String) -> Bool {
        tilt_gst_bin_child_is_audio_source(tilt_gst_bin(pipeline.element), name) != 0
    }

    /// Hands the samples of the next buffer to `body`, waiting up to `nanoseconds` for one.
    /// - Returns: `false` when none came in that time (or at the end of the stream).
    func pull(waiting nanoseconds: GstClockTime, _ body: (UnsafeBufferPointer<Float>) -> Void) -> Bool {
        guard let sample = gst_app_sink_try_pull_sample(tilt_gst_app_sink(sink), nanoseconds) else { return false }
        defer { tilt_gst_sample_unref(sample) }
        guard let buffer = gst_sample_get_buffer(sample) else { return true }
        var map = GstMapInfo()
        guard gst_buffer_map(buffer, &map, GST_MAP_READ) != 0 else { return true }
        defer { gst_buffer_unmap(buffer, &map) }
        guard let data = map.data else { return true }
        let count = Int(map.size) / MemoryLayout<Float>.size
        if Int(bitPattern: data) % MemoryLayout<Float>.alignment == 0 {
            UnsafeRawPointer(data).withMemoryRebound(to: Float.self, capacity: count) { floats in
                body(UnsafeBufferPointer(start: floats, count: count))
            }
        } else {
            // GStreamer's buffers are aligned; should one not be, its samples are copied first.
            let copied = (0..<count).map {
                UnsafeRawPointer(data).loadUnaligned(fromByteOffset: $0 * 4, as: Float.self)
            }
            copied.withUnsafeBufferPointer(body)
        }
        return true
    }

    /// The next message of interest on the bus (end, error, warning, a missing decoder), without waiting; the others
    /// are dropped.
    func nextMessage() -> Message? {
        let wanted = GstMessageType(
            rawValue: GST_MESSAGE_ERROR.rawValue | GST_MESSAGE_EOS.rawValue | GST_MESSAGE_WARNING.rawValue
                | GST_MESSAGE_ELEMENT.rawValue)
        while let message = gst_bus_pop_filtered(bus, wanted) {
            defer { tilt_gst_message_unref(message) }
            switch tilt_gst_message_type(message) {
            case GST_MESSAGE_EOS:
                return .endOfStream
            case GST_MESSAGE_ERROR:
                return .error(BusError(message))
            case GST_MESSAGE_WARNING:
                var error: UnsafeMutablePointer<GError>?
                var detail: UnsafeMutablePointer<gchar>?
                gst_message_parse_warning(message, &error, &detail)
                let text = error?.pointee.message.map { String(cString: $0) } ?? "a warning"
                if let error { g_error_free(error) }
                g_free(detail)
                return .warning(text)
            default:
                if let type = tilt_gst_missing_decoder_media_type(message) {
                    return .missingDecoder(String(cString: type))
                }
            }
        }
        return nil
    }
}
