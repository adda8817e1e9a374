import CGStreamer
import FoundationEssentials
import TiltCore

/// Moving pictures from a ``VideoInput`` through a GStreamer pipeline ending in an app sink: frames are decoded on
/// GStreamer's streaming threads and handed over as RGBA ``VideoFrame``s.
///
/// Two pacings (``Pacing``):
/// - ``Pacing/live``: the pipeline plays in real time and the newest frame wins (the app sink holds one frame and
///   drops the older one), so a slow reader never blocks the decoder and ``latestFrame()`` never waits. A file loops:
///   at its end it is sought back to the start.
/// - ``Pacing/stepped``: every frame of a file in order, decoded as fast as ``frame(at:)`` asks, so that an offline
///   render shows the video at exactly the time of each output frame, whatever the machine's speed.
///
/// ``open()`` waits for the first frame (or the error that stops it), so a missing camera or a file that does not
/// decode fails there, with a ``MediaError`` that says which and what to do. Not thread-safe: use it from one thread
/// (the render loop's).
package final class VideoSource {
    /// How frames are paced.
    package enum Pacing: Sendable, Hashable {
        /// Real time; the newest frame wins.
        case live
        /// Every frame in order, at the reader's pace (files only).
        case stepped
    }

    /// How the source behaves.
    package struct Configuration: Sendable, Hashable {
        /// Real time (``Pacing/live``, default) or frame by frame (``Pacing/stepped``).
        package var pacing: Pacing
        /// Seconds ``open()`` waits for the first frame before giving up (default 10: a camera takes a second or two
        /// to start, a file a few hundred milliseconds).
        package var firstFrameTimeout: Double

        /// A configuration; the defaults are documented on each property.
        package init(pacing: Pacing = .live, firstFrameTimeout: Double = 10) {
            self.pacing = pacing
            self.firstFrameTimeout = firstFrameTimeout
        }
    }

    /// What is played.
    package let input: VideoInput
    /// How.
    package let configuration: Configuration
    /// Whether the pipeline exists and plays or is paused (between ``open()`` and ``close()``).
    package var isOpen: Bool { pipeline != nil }
    /// Whether an open pipeline is paused (``setPaused(_:)``).
    package private(set) var isPaused = false
    /// Frames taken from the pipeline since the source was made (handed out or dropped for a newer one).
    package private(set) var framesTaken = 0
    /// Times a file was played to its end and started again.
    package private(set) var loops = 0

    private var pipeline: UnsafeMutablePointer<GstElement>?
    private var sink: UnsafeMutablePointer<GstElement>?
    private var bus: UnsafeMutablePointer<GstBus>?
    /// A frame taken but not handed out yet (the first frame, or a stepped source's next frame).
    private var pending: VideoFrame?
    /// A stepped source's frame on show.
    private var current: VideoFrame?
    /// A stop found with a last frame, thrown by the next ``latestFrame()`` once that frame is handed out.
    private var pendingStop: MediaError?
    /// Whether no frame came since the pipeline was built (an error then is said as one at opening).
    private var awaitingFirstFrame = false
    /// A stepped source: seconds of video played in earlier loops, and where the last frame taken ends.
    private var loopOffset = 0.0
    private var loopEnd = 0.0

    /// A source for `input`; nothing is opened until ``open()``.
    package init(_ input: VideoInput, configuration: Configuration = Configuration()) {
        self.input = input
        self.configuration = configuration
    }

    deinit {
        close()
    }

    /// The pipeline description for `input`: the source, then conversion to RGBA into the sink `tilt_sink`.
    var pipelineDescription: String {
        let convert = "videoconvert ! video/x-raw,format=RGBA"
        let sink =
            switch configuration.pacing {
            case .live: "appsink name=tilt_sink max-buffers=1 drop=true sync=true enable-last-sample=false"
            case .stepped: "appsink name=tilt_sink max-buffers=1 drop=false sync=false enable-last-sample=false"
            }
        let source =
            switch input {
            // Only the video stream is exposed: a file's sound is not decoded.
            case .file: "filesrc name=tilt_source ! decodebin expose-all-streams=false caps=video/x-raw"
            case .camera: "v4l2src name=tilt_source"
            case .pipeline(let text): text
            }
        return "\(source) ! \(convert) ! \(sink)"
    }

    /// Builds the pipeline, plays it and waits for its first frame (which ``latestFrame()`` then returns).
    /// Does nothing when already open.
    /// - Parameter wait: whether to wait for the first frame (default). Without waiting (a camera reopened while a
    ///   window is shown: the loop must not stall for the second a camera takes to start), only building the
    ///   pipeline can fail here; what stops it later is thrown by ``latestFrame()``, said as at opening.
    /// - Throws: `MediaError`: no camera, a busy camera, a file that does not decode, a pipeline that cannot be
    ///   built, or no frame within ``Configuration/firstFrameTimeout`` seconds. The source is closed again.
    package func open(waitingForFirstFrame wait: Bool = true) throws(MediaError) {
        guard pipeline == nil else { return }
        if case .file = input {
        } else {
            precondition(configuration.pacing == .live, "stepped pacing is for files; \(input) plays live")
        }
        try MediaFramework.start()
        if case .pipeline(let text) = input, let sink = Self.trailingSink(of: text) {
            throw .pipelineEndsInSink(description: text, sink: sink.element, without: sink.without)
        }
        var error: UnsafeMutablePointer<GError>?
        let built = gst_parse_launch_full(pipelineDescription, nil, GST_PARSE_FLAG_FATAL_ERRORS, &error)
        if let error {
            let failure = Failure(error)
            g_error_free(error)
            if let built { tilt_gst_object_unref(UnsafeMutableRawPointer(built)) }
            throw Self.mediaError(failure, input: input, opening: true)
        }
        guard let built else {
            throw Self.mediaError(
                Failure(code: 0, message: "GStreamer built nothing"), input: input, opening: true)
        }
        _ = gst_object_ref_sink(UnsafeMutableRawPointer(built))
        pipeline = built
        bus = gst_element_get_bus(built)
        sink = gst_bin_get_by_name(tilt_gst_bin(built), "tilt_sink")
        if let source = gst_bin_get_by_name(tilt_gst_bin(built), "tilt_source") {
            switch input {
            case .file(let path): tilt_g_object_set_string(UnsafeMutableRawPointer(source), "location", path)
            case .camera(let device): tilt_g_object_set_string(UnsafeMutableRawPointer(source), "device", device)
            case .pipeline: break
            }
            tilt_gst_object_unref(UnsafeMutableRawPointer(source))
        }
        isPaused = false
        loopOffset = 0
        loopEnd = 0
        current = nil
        gst_element_set_state(built, GST_STATE_PLAYING)
        awaitingFirstFrame = true
        guard wait else { return }
        do throws(MediaError) {
            pending = try waitForFirstFrame()
        } catch {
            close()
            throw error
        }
    }

    /// Stops the pipeline (state NULL: a camera is released) and frees it. A later ``open()`` starts again.
    package func close() {
        pending = nil
        pendingStop = nil
        current = nil
        guard let pipeline else { return }
        gst_element_set_state(pipeline, GST_STATE_NULL)
        if let sink { tilt_gst_object_unref(UnsafeMutableRawPointer(sink)) }
        if let bus { tilt_gst_object_unref(UnsafeMutableRawPointer(bus)) }
        tilt_gst_object_unref(UnsafeMutableRawPointer(pipeline))
        self.pipeline = nil
        self.sink = nil
        self.bus = nil
        isPaused = false
    }

    /// Pauses or resumes an open pipeline where it is (a file keeps its place; a live source may drop what it
    /// captured meanwhile).
    package func setPaused(_ paused: Bool) {
        guard let pipeline, paused != isPaused else { return }
        gst_element_set_state(pipeline, paused ? GST_STATE_PAUSED : GST_STATE_PLAYING)
        isPaused = paused
    }

    /// The newest frame decoded since the last call, or `nil` when none is new (or the source is closed or
    /// paused). Never waits. A file that reached its end starts again.
    /// - Throws: `MediaError.stream` when the pipeline stopped with an error, or a camera or pipeline ended (it is
    ///   then closed).
    package func latestFrame() throws(MediaError) -> VideoFrame? {
        if let stop = pendingStop {
            pendingStop = nil
            throw stop
        }
        guard let sink, !isPaused else { return nil }
        if let pending {
            self.pending = nil
            return pending
        }
        var newest: VideoFrame?
        while let sample = gst_app_sink_try_pull_sample(tilt_gst_app_sink(sink), 0) {
            if let frame = VideoFrame(taking: sample) {
                newest = frame
                framesTaken += 1
                awaitingFirstFrame = false
            }
        }
        // The bus after the frames: a source's last frame, queued before its end or error, is still shown.
        do throws(MediaError) {
            try handleBus()
        } catch {
            guard newest != nil else { throw error }
            pendingStop = error
        }
        return newest
    }

    /// The frame on show at `seconds` into a stepped file (the last whose time is at most `seconds`), decoding
    /// every frame up to it; past the end the file loops. Ask for increasing times: an earlier time returns the
    /// frame on show now.
    /// - Throws: `MediaError` when the file stops decoding or gives no frame within the timeout.
    package func frame(at seconds: Double) throws(MediaError) -> VideoFrame {
        precondition(configuration.pacing == .stepped, "frame(at:) needs a stepped source")
        if pipeline == nil { try open() }
        // Container timestamps are often rounded to the millisecond (WebM): allow that much.
        let tolerance = 0.001
        while true {
            let next: VideoFrame
            if let pending {
                next = pending
            } else {
                next = try nextFrameInOrder()
            }
            if let current, next.time > seconds + tolerance {
                pending = next
                return current
            }
            pending = nil
            current = next
        }
    }

    /// A stepped source's next frame, looping at the end of the file.
    private func nextFrameInOrder() throws(MediaError) -> VideoFrame {
        guard let sink else { throw .stream(input: input, reason: "the source is closed") }
        var restarted = false
        let deadline = Date().addingTimeInterval(configuration.firstFrameTimeout)
        while true {
            try handleBus(loopAtEnd: false)
            if let sample = gst_app_sink_try_pull_sample(tilt_gst_app_sink(sink), 20_000_000),
                let frame = VideoFrame(taking: sample, timeOffset: loopOffset)
            {
                framesTaken += 1
                awaitingFirstFrame = false
                loopEnd = max(loopEnd, frame.time + (frame.duration ?? 0))
                return frame
            }
            if gst_app_sink_is_eos(tilt_gst_app_sink(sink)) != 0 {
                guard !restarted, loopEnd > loopOffset else {
                    throw .video(path: input.path, problem: .damaged, reason: "it ends before its first picture")
                }
                restarted = true
                loopOffset = loopEnd
                try rewind()
                continue
            }
            if Date() > deadline {
                throw .video(
                    path: input.path, problem: .damaged,
                    reason: "no picture came in \(Int(configuration.firstFrameTimeout)) s")
            }
        }
    }

    /// Waits for the pipeline's first frame, an error, or the end.
    private func waitForFirstFrame() throws(MediaError) -> VideoFrame {
        guard let sink else { throw .stream(input: input, reason: "the pipeline has no app sink") }
        let deadline = Date().addingTimeInterval(configuration.firstFrameTimeout)
        while true {
            if let failure = popFailure() { throw Self.mediaError(failure, input: input, opening: true) }
            if let sample = gst_app_sink_try_pull_sample(tilt_gst_app_sink(sink), 20_000_000),
                let frame = VideoFrame(taking: sample)
            {
                framesTaken += 1
                awaitingFirstFrame = false
                loopEnd = frame.time + (frame.duration ?? 0)
                return frame
            }
            if gst_app_sink_is_eos(tilt_gst_app_sink(sink)) != 0 {
                if let failure = popFailure() { throw Self.mediaError(failure, input: input, opening: true) }
                switch input {
                case .file(let path):
                    throw .video(path: path, problem: .damaged, reason: "it ends before its first picture")
                default: throw .stream(input: input, reason: "it ended before its first picture")
                }
            }
            if Date() > deadline {
                let waited = "no picture came in \(Int(configuration.firstFrameTimeout)) s"
                // A demuxer's error while decodebin is still setting it up is dropped by decodebin (it would try
                // another element), so a damaged file may say nothing at all: the wait is all there is to go on.
                if case .file(let path) = input { throw .video(path: path, problem: .damaged, reason: waited) }
                throw .stream(input: input, reason: "\(waited); check that it plays with gst-launch-1.0")
            }
        }
    }

    /// Takes the bus's messages: an error closes the source and is thrown; the end of a live file seeks back to the
    /// start, and the end of a camera or pipeline closes it and is thrown as ``MediaError/stream(input:reason:)``
    /// ("it ended").
    private func handleBus(loopAtEnd: Bool = true) throws(MediaError) {
        guard let bus else { return }
        let wanted = GstMessageType(rawValue: GST_MESSAGE_ERROR.rawValue | GST_MESSAGE_EOS.rawValue)
        while let message = gst_bus_pop_filtered(bus, wanted) {
            defer { tilt_gst_message_unref(message) }
            if tilt_gst_message_type(message) == GST_MESSAGE_ERROR {
                let failure = Self.failure(of: message)
                let opening = awaitingFirstFrame
                close()
                throw Self.mediaError(failure, input: input, opening: opening)
            }
            switch input {
            case .file: if loopAtEnd { try rewind() }
            case .camera, .pipeline:
                // A live source that ends has stopped as surely as one that fails: its last frame is all there is.
                let opening = awaitingFirstFrame
                close()
                if opening { throw .stream(input: input, reason: "it ended before its first picture") }
                throw .stream(input: input, reason: "it ended (end of stream)")
            }
        }
    }

    /// Seeks a file back to its start (flushing: the frames queued from the end are dropped).
    private func rewind() throws(MediaError) {
        guard let pipeline else { return }
        let flags = GstSeekFlags(rawValue: GST_SEEK_FLAG_FLUSH.rawValue | GST_SEEK_FLAG_KEY_UNIT.rawValue)
        guard gst_element_seek_simple(pipeline, GST_FORMAT_TIME, flags, 0) != 0 else {
            throw .stream(input: input, reason: "it cannot be sought back to its start to play it again")
        }
        loops += 1
    }

    /// The first error waiting on the bus, if any (other messages are dropped).
    private func popFailure() -> Failure? {
        guard let bus, let message = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR) else { return nil }
        defer { tilt_gst_message_unref(message) }
        return Self.failure(of: message)
    }

    private static func failure(of message: UnsafeMutablePointer<GstMessage>) -> Failure {
        Failure(BusError(message))
    }
}

extension VideoInput {
    /// The file, device or description, for messages.
    var path: String {
        switch self {
        case .file(let path), .camera(let path), .pipeline(let path): path
        }
    }
}
