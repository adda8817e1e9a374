import CGStreamer

/// GStreamer, initialised once per process: every pipeline in TiltMedia starts here.
package enum MediaFramework {
    /// Initialises GStreamer on first use (`gst_init_check` may be called again and from any thread).
    /// - Throws: `MediaError.frameworkUnavailable` with GStreamer's reason.
    package static func start() throws(MediaError) {
        var failure: UnsafeMutablePointer<GError>?
        guard gst_init_check(nil, nil, &failure) != 0 else {
            let reason = failure.flatMap { $0.pointee.message.map { String(cString: $0) } } ?? "unknown reason"
            if let failure { g_error_free(failure) }
            throw .frameworkUnavailable(reason)
        }
    }

    /// The GStreamer version this process runs against, e.g. "GStreamer 1.22.0".
    package static var version: String {
        guard let text = gst_version_string() else { return "GStreamer" }
        defer { g_free(text) }
        return String(cString: text)
    }

    /// Whether an element factory of this name is installed (e.g. "vp9enc", "x264enc", "v4l2src"); starts
    /// GStreamer first (without it every answer would be no), and is `false` where GStreamer will not start.
    package static func hasElement(_ name: String) -> Bool {
        guard (try? start()) != nil else { return false }
        guard let factory = gst_element_factory_find(name) else { return false }
        tilt_gst_object_unref(UnsafeMutableRawPointer(factory))
        return true
    }
}
