import CGStreamer
import FoundationEssentials
import TiltCore

/// What a GStreamer ERROR message says, read out once: the error's domain, code and text, the debug detail (often
/// the system's words, such as "No space left on device") and the element that posted it.
struct BusError {
    var domain: GQuark
    var code: Int32
    /// The message for users, e.g. "Could not write to resource."
    var message: String
    /// The detail for developers, if any.
    var debug: String?
    /// The name of the element that posted it, if any.
    var element: String?

    /// Reads `message`, an ERROR message (which stays the caller's to unref).
    init(_ message: UnsafeMutablePointer<GstMessage>) {
        var error: UnsafeMutablePointer<GError>?
        var detail: UnsafeMutablePointer<gchar>?
        gst_message_parse_error(message, &error, &detail)
        defer {
            if let error { g_error_free(error) }
            g_free(detail)
        }
        domain = error?.pointee.domain ?? 0
        code = error?.pointee.code ?? 0
        self.message = error?.pointee.message.map { String(cString: $0) } ?? "unknown error"
        debug = detail.map { String(cString: $0) }
        let name = tilt_gst_message_source(message).flatMap { gst_object_get_name($0) }
        defer { g_free(name) }
        element = name.map { String(cString: $0) }
    }

    /// The system error (errno) a debug text names, or `nil`: the words after its last `system error: ` (as
    /// GStreamer's `GST_ERROR_SYSTEM` writes them), else its last line (`filesink` writes `g_strerror(errno)` alone),
    /// matched against the C library's own words for each errno, not against English text of tilt's.
    static func systemError(in debug: String?) -> Int32? {
        guard let debug else { return nil }
        let words: String
        if let range = debug.ranges(of: "system error: ").last {
            words = debug[range.upperBound...].split(separator: "\n").first.map(String.init) ?? ""
        } else {
            words = debug.split(separator: "\n").last.map(String.init) ?? ""
        }
        guard !words.isEmpty else { return nil }
        return (1..<Int32(134)).first { String(cString: strerror($0)) == words }
    }
}
