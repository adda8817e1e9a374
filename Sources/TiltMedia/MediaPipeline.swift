import CGStreamer

#if canImport(Glibc)
    import Glibc
#endif

/// One GStreamer pipeline made from a `gst-launch` description, with its bus: the part every TiltMedia pipeline
/// shares. It owns the pipeline and the elements it looks up, and stops and frees them when it goes away.
final class MediaPipeline {
    /// What the bus said.
    enum Message {
        /// The stream ended (every sink got end-of-stream).
        case endOfStream
        /// An element failed.
        case error(Failure)
    }

    /// An element's error: GStreamer's domain and code, its message and its debug detail.
    struct Failure: Equatable {
        /// The element that failed, e.g. `sink`.
        var element: String
        /// The message for users, e.g. "Could not write to resource."
        var message: String
        /// The detail for developers (often the system's words: "No space left on device").
        var debug: String
        /// Whether it is GStreamer's "no space left on the resource" (or the system's ENOSPC behind a write error).
        var isDiskFull: Bool

        /// The message with its detail, as one line.
        var text: String {
            let detail = debug.split(separator: "\n").last.map(String.init) ?? ""
            return detail.isEmpty ? message : "\(message) (\(element): \(detail))"
        }
    }

    let element: UnsafeMutablePointer<GstElement>
    private let bus: UnsafeMutablePointer<GstBus>
    private var children: [UnsafeMutablePointer<GstElement>] = []

    /// Builds the pipeline `description` (not yet started).
    /// - Throws: the parser's message (an unknown element, a bad property) as a `String`.
    init(_ description: String) throws(MediaPipelineError) {
        var failure: UnsafeMutablePointer<GError>?
        let made = gst_parse_launch(description, &failure)
        if let failure {
            let reason = failure.pointee.message.map { String(cString: $0) } ?? "unknown reason"
            g_error_free(failure)
            if let made { tilt_gst_object_unref(made) }
            throw MediaPipelineError(reason: reason)
        }
        guard let made else { throw MediaPipelineError(reason: "GStreamer made no pipeline of \(description)") }
        element = made
        bus = gst_element_get_bus(made)
    }

    deinit {
        gst_element_set_state(element, GST_STATE_NULL)
        for child in children { tilt_gst_object_unref(child) }
        tilt_gst_object_unref(bus)
        tilt_gst_object_unref(element)
    }

    /// The element named `name` in the description (`appsrc name=source`).
    func child(_ name: String) -> UnsafeMutablePointer<GstElement>? {
        guard let found = gst_bin_get_by_name(tilt_gst_bin(element), name) else { return nil }
        children.append(found)
        return found
    }

    /// Sets a property of `element` from its text form, as `gst-launch` does (`location`, `sync`).
    func set(_ property: String, _ value: String, on element: UnsafeMutablePointer<GstElement>) {
        gst_util_set_object_arg(tilt_g_object(element), property, value)
    }

    /// Starts the pipeline.
    /// - Returns: `false` when GStreamer refused at once (the bus then holds the error).
    func play() -> Bool {
        gst_element_set_state(element, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE
    }

    /// Stops the pipeline and releases its resources (files are closed).
    func stop() {
        gst_element_set_state(element, GST_STATE_NULL)
    }

    /// The first error waiting on the bus, if any (without waiting).
    func pendingFailure() -> Failure? {
        while let message = next(waiting: 0) {
            if case .error(let failure) = message { return failure }
        }
        return nil
    }

    /// The next end-of-stream or error on the bus, waiting up to `nanoseconds` (`nil`: as long as it takes).
    func next(waiting nanoseconds: GstClockTime?) -> Message? {
        let types = GstMessageType(rawValue: GST_MESSAGE_ERROR.rawValue | GST_MESSAGE_EOS.rawValue)
        guard let message = gst_bus_timed_pop_filtered(bus, nanoseconds ?? tilt_gst_clock_time_none(), types) else {
            return nil
        }
        defer { tilt_gst_message_unref(message) }
        if tilt_gst_message_type(message) == GST_MESSAGE_EOS { return .endOfStream }
        let error = BusError(message)
        let detail = error.debug ?? ""
        let noSpace =
            error.domain == gst_resource_error_quark() && error.code == Int32(GST_RESOURCE_ERROR_NO_SPACE_LEFT.rawValue)
        return .error(
            Failure(
                element: error.element ?? "pipeline", message: error.message, debug: detail,
                isDiskFull: noSpace || BusError.systemError(in: error.debug) == ENOSPC))
    }
}

/// GStreamer could not build a pipeline from its description.
struct MediaPipelineError: Error {
    /// The parser's message.
    var reason: String
}
