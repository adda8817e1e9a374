import CGStreamer
import FoundationEssentials
import TiltCore

extension VideoSource {
    /// GStreamer's error, as it came from the parser or the bus: its domain, code, message and debug text.
    struct Failure {
        var domain: GQuark
        var code: Int32
        var message: String
        var debug: String?

        /// A failure of no GStreamer domain, for what tilt finds wrong itself.
        init(code: Int32, message: String, debug: String? = nil) {
            domain = 0
            self.code = code
            self.message = message
            self.debug = debug
        }

        /// What a bus ERROR message said.
        init(_ error: BusError) {
            domain = error.domain
            code = error.code
            message = error.message
            debug = error.debug
        }

        /// Takes the text out of `error` (which stays the caller's to free).
        init(_ error: UnsafeMutablePointer<GError>, debug: String? = nil) {
            domain = error.pointee.domain
            code = error.pointee.code
            message = error.pointee.message.map { String(cString: $0) } ?? "unknown error"
            self.debug = debug
        }

        /// The message, with the system error of the debug text when there is one ("No such file or directory").
        var reason: String {
            let trimmed = message.hasSuffix(".") ? String(message.dropLast()) : message
            guard let debug, let range = debug.ranges(of: "system error: ").last else { return trimmed }
            let system = debug[range.upperBound...].split(separator: "\n").first.map(String.init) ?? ""
            guard !system.isEmpty, system != "Success" else { return trimmed }
            return "\(trimmed): \(system)"
        }

        /// The system error (errno) GStreamer's debug text names, or `nil` (``BusError/systemError(in:)``).
        var systemError: Int32? { BusError.systemError(in: debug) }

        func isResource(_ codes: GstResourceError...) -> Bool {
            domain == gst_resource_error_quark() && codes.contains { Int32($0.rawValue) == code }
        }

        func isStream(_ codes: GstStreamError...) -> Bool {
            domain == gst_stream_error_quark() && codes.contains { Int32($0.rawValue) == code }
        }
    }

    /// The ``MediaError`` for `failure` of `input`; `opening` says whether it came before the first picture.
    static func mediaError(_ failure: Failure, input: VideoInput, opening: Bool) -> MediaError {
        let reason = failure.reason
        switch input {
        case .camera(let device):
            // Busy by GStreamer's code (v4l2src's "is busy"), or by the system error an open reported (EBUSY).
            if failure.isResource(GST_RESOURCE_ERROR_BUSY) || failure.systemError == EBUSY {
                return .cameraBusy(device: device, reason: reason, holders: DeviceHolders.find(device))
            }
            if failure.domain == gst_parse_error_quark() {
                return .noCamera(
                    device: device, reason: "\(reason) (v4l2src is in Debian's gstreamer1.0-plugins-good)")
            }
            if opening
                && failure.isResource(
                    GST_RESOURCE_ERROR_NOT_FOUND, GST_RESOURCE_ERROR_OPEN_READ, GST_RESOURCE_ERROR_OPEN_READ_WRITE,
                    GST_RESOURCE_ERROR_SETTINGS)
            {
                return .noCamera(device: device, reason: reason)
            }
            return .stream(input: input, reason: reason)
        case .file(let path):
            if failure.isStream(GST_STREAM_ERROR_TYPE_NOT_FOUND, GST_STREAM_ERROR_WRONG_TYPE) {
                return .video(path: path, problem: .unknownType, reason: reason)
            }
            if failure.isStream(GST_STREAM_ERROR_CODEC_NOT_FOUND)
                || (failure.domain == gst_core_error_quark()
                    && failure.code == Int32(GST_CORE_ERROR_MISSING_PLUGIN.rawValue))
            {
                return .video(path: path, problem: .noDecoder, reason: reason)
            }
            if failure.isResource(GST_RESOURCE_ERROR_NOT_FOUND, GST_RESOURCE_ERROR_OPEN_READ, GST_RESOURCE_ERROR_READ) {
                return .video(path: path, problem: .unreadable, reason: reason)
            }
            return .video(path: path, problem: .damaged, reason: reason)
        case .pipeline(let description):
            return opening ? .pipeline(description: description, reason: reason) : .stream(input: input, reason: reason)
        }
    }
}
