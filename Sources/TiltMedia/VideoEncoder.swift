import CGStreamer
import TiltCore

#if canImport(Glibc)
    import Glibc
#endif

/// Encodes RGBA frames into a video file (WebM, MP4) through GStreamer:
/// `appsrc → videoconvert → I420 → encoder → muxer → filesink`.
///
/// Frames are straight-alpha RGBA8, top row first (what `OffscreenRenderer.render` returns), each stamped with its
/// time `i / fps` and lasting one frame. The file is written through ``AtomicFileOutput``: to a temporary
/// `.partial-…` file in the target's folder, renamed into place by ``finish()`` once the muxer has seen the end of
/// the stream, so a failed, cancelled or interrupted (SIGINT, SIGTERM) encoding leaves no partial video and keeps
/// the file that was there. Not thread-safe: use it from one thread.
package final class VideoEncoder {
    /// What to write.
    package struct Configuration: Sendable, Equatable {
        /// Frame width in pixels.
        package var width: Int
        /// Frame height in pixels.
        package var height: Int
        /// Frames per second (default 30); any positive rate, written as the nearest fraction.
        package var fps: Double
        /// The file format.
        package var container: VideoContainer
        /// The codec; `nil` (the default) takes the container's ``VideoContainer/defaultCodec``.
        package var codec: VideoCodec?
        /// Encoding threads (default: the processors online).
        package var threads: Int
        /// Frames waiting for the encoder at most (default 2): memory stays bounded, and a frame counts as done
        /// when the encoder has taken it, not when it was queued.
        package var queuedFrames: Int

        /// A configuration with the defaults above.
        package init(
            width: Int, height: Int, fps: Double = 30, container: VideoContainer, codec: VideoCodec? = nil,
            threads: Int? = nil, queuedFrames: Int = 2
        ) {
            self.width = width
            self.height = height
            self.fps = fps
            self.container = container
            self.codec = codec
            self.threads = threads ?? max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
            self.queuedFrames = max(1, queuedFrames)
        }

        /// ``codec`` or the container's default.
        package var resolvedCodec: VideoCodec? { codec ?? container.defaultCodec }
    }

    /// The file being written, as given.
    package let path: String
    /// What is written.
    package let configuration: Configuration
    /// Frames the encoder has been given so far.
    package private(set) var frames = 0

    private let output: AtomicFileOutput
    private let backend: Backend
    private let frameBytes: Int
    private var finished = false

    private enum Backend {
        case gstreamer(MediaPipeline, source: UnsafeMutablePointer<GstAppSrc>, rate: (Int32, Int32))
        case gif(GIFWriter)
    }

    /// Checks that `configuration` can be encoded here, before any file is made or frame rendered: the codec fits
    /// the container, the size suits the codec, and the encoder and muxer are installed.
    /// - Returns: The encoder element that will be used (`nil` for GIF, which needs none).
    /// - Throws: ``MediaError`` (`.noEncoder`, `.missingElement`, `.unsupported`) saying what to install or change.
    @discardableResult
    package static func check(_ configuration: Configuration) throws(MediaError) -> VideoCodec.Encoder? {
        try MediaFramework.start()
        let container = configuration.container
        let (width, height) = (configuration.width, configuration.height)
        guard width > 0, height > 0 else {
            throw .unsupported("a video needs a positive size (got \(width)x\(height))")
        }
        guard configuration.fps > 0, configuration.fps.isFinite else {
            throw .unsupported("a video needs a positive frame rate (got \(configuration.fps) fps)")
        }
        if container == .gif {
            if let codec = configuration.codec {
                throw .unsupported("a .gif has no codec to choose (--codec \(codec.rawValue)); drop --codec")
            }
            return nil
        }
        guard let codec = configuration.resolvedCodec, container.codecs.contains(codec) else {
            let allowed = container.codecs.map(\.rawValue).joined(separator: " or ")
            let holder = VideoContainer.allCases.first { $0.codecs.contains(configuration.codec ?? .h264) }
            throw .unsupported(
                "a .\(container.rawValue) file cannot hold \(configuration.codec?.title ?? "this codec"); pass "
                    + "--codec \(allowed)" + (holder.map { ", or write a .\($0.rawValue) file" } ?? ""))
        }
        if codec.needsEvenSize && (width % 2 != 0 || height % 2 != 0) {
            let even = "\(width + width % 2)x\(height + height % 2)"
            throw .unsupported(
                "\(codec.title) needs an even width and height (players decode 4:2:0 only), and \(width)x\(height) "
                    + "is odd; give --size \(even), or write a .webm file (VP9 takes any size)")
        }
        if let muxer = container.muxer, !MediaFramework.hasElement(muxer.element) {
            throw .missingElement(
                name: muxer.element, package: muxer.package, purpose: "the .\(container.rawValue) muxer")
        }
        if !MediaFramework.hasElement("videoconvert") {
            throw .missingElement(
                name: "videoconvert", package: "gstreamer1.0-plugins-base", purpose: "RGBA to YUV conversion")
        }
        guard let encoder = codec.installedEncoder else {
            let others = container.codecs.filter { $0 != codec && $0.installedEncoder != nil }
            throw .noEncoder(codec: codec, container: container, alternatives: others)
        }
        return encoder
    }

    /// Checks the configuration, creates the temporary file next to `path` and starts the pipeline.
    ///
    /// - Parameters:
    ///   - path: The video to write; an existing file is replaced when ``finish()`` succeeds (re-rendering over
    ///     the last video is what `--out` is for), and kept when encoding fails.
    ///   - inputs: Files being read (a replay log, a picture); `path` may be none of them.
    /// - Throws: ``MediaError``: what ``check(_:)`` throws, `.output` when the file cannot be created (a missing or
    ///   read-only folder), `.encoding` when GStreamer will not start the pipeline.
    package init(path: String, configuration: Configuration, inputs: [String] = []) throws(MediaError) {
        let encoder = try Self.check(configuration)
        self.path = path
        self.configuration = configuration
        frameBytes = configuration.width * configuration.height * 4
        do {
            output = try AtomicFileOutput(path: path, replacing: true, inputs: inputs)
        } catch {
            throw .output(error)
        }
        let existed = access(path, F_OK) == 0
        output.discardOnInterrupt(
            saying: "interrupted: the video \(path) was not written (its partial file is removed)"
                + (existed ? "; the earlier \(path) is kept as it was" : ""))
        guard let encoder, let codec = configuration.resolvedCodec, let muxer = configuration.container.muxer else {
            do {
                backend = .gif(
                    try GIFWriter(
                        output: output, width: configuration.width, height: configuration.height,
                        fps: configuration.fps))
            } catch {
                output.discard()
                throw .output(error)
            }
            return
        }
        var numerator: Int32 = 0
        var denominator: Int32 = 1
        gst_util_double_to_fraction(configuration.fps, &numerator, &denominator)
        let bitrate = VideoCodec.bitrateCap(
            width: configuration.width, height: configuration.height, fps: configuration.fps)
        let caps =
            "video/x-raw,format=RGBA,width=\(configuration.width),height=\(configuration.height),"
            + "framerate=\(numerator)/\(denominator),pixel-aspect-ratio=1/1"
        let description =
            "appsrc name=source format=time caps=\"\(caps)\" ! videoconvert ! video/x-raw,format=I420 ! "
            + "\(encoder.element) \(encoder.properties(configuration.threads, bitrate)) ! "
            + (codec == .h264 ? "video/x-h264,profile=high ! " : "") + "\(muxer.element) ! filesink name=sink"
        let pipeline: MediaPipeline
        do {
            pipeline = try MediaPipeline(description)
        } catch {
            output.discard()
            throw .encoding(path: path, reason: "GStreamer would not build the pipeline: \(error.reason)")
        }
        guard let source = pipeline.child("source"), let sink = pipeline.child("sink") else {
            output.discard()
            throw .encoding(path: path, reason: "the pipeline lost its source or sink")
        }
        pipeline.set("location", output.temporaryPath, on: sink)
        backend = .gstreamer(pipeline, source: tilt_gst_app_src(source), rate: (numerator, denominator))
        guard pipeline.play() else {
            let reason = pipeline.pendingFailure()?.text ?? "GStreamer would not start the pipeline"
            cancel()
            throw .encoding(path: path, reason: reason)
        }
    }

    deinit {
        if !finished { cancel() }
    }

    /// Encodes one frame: straight-alpha RGBA8, top row first, `width * height * 4` bytes.
    ///
    /// Waits while ``Configuration/queuedFrames`` frames are queued, so the caller runs no further ahead of the
    /// encoder than that.
    /// - Throws: ``MediaError/diskFull(path:frames:)`` or ``MediaError/encoding(path:reason:)``; the partial file is
    ///   then removed and the encoder is finished.
    package func append(rgba: [UInt8]) throws(MediaError) {
        precondition(!finished, "VideoEncoder.append after finish() or cancel()")
        precondition(rgba.count == frameBytes, "a frame of \(rgba.count) bytes; expected \(frameBytes)")
        switch backend {
        case .gif(let writer):
            do { try writer.append(rgba: rgba) } catch { throw fail(error) }
            frames += 1
        case .gstreamer(let pipeline, let source, let rate):
            let limit = guint64(configuration.queuedFrames * frameBytes)
            while gst_app_src_get_current_level_bytes(source) >= limit {
                if let message = pipeline.next(waiting: 5_000_000) { throw fail(message) }
            }
            guard let buffer = gst_buffer_new_allocate(nil, gsize(frameBytes), nil) else {
                throw fail(.encoding(path: path, reason: "GStreamer could not allocate a frame"))
            }
            _ = rgba.withUnsafeBytes { gst_buffer_fill(buffer, 0, $0.baseAddress, gsize(frameBytes)) }
            let start = tilt_gst_frame_time(guint64(frames), rate.0, rate.1)
            buffer.pointee.pts = start
            buffer.pointee.duration = tilt_gst_frame_time(guint64(frames + 1), rate.0, rate.1) - start
            buffer.pointee.offset = guint64(frames)
            let flow = gst_app_src_push_buffer(source, buffer)
            if let message = pipeline.next(waiting: 0) { throw fail(message) }
            guard flow == GST_FLOW_OK else {
                throw fail(.encoding(path: path, reason: "the pipeline refused the frame (\(flow.rawValue))"))
            }
            frames += 1
        }
    }

    /// Ends the stream, waits until the muxer has written all of it, and puts the file in place.
    /// - Throws: ``MediaError``; the partial file is then removed and any earlier file at ``path`` kept.
    package func finish() throws(MediaError) {
        precondition(!finished, "VideoEncoder.finish after finish() or cancel()")
        switch backend {
        case .gif(let writer):
            do { try writer.finish() } catch { throw fail(error) }
        case .gstreamer(let pipeline, let source, _):
            _ = gst_app_src_end_of_stream(source)
            while true {
                guard let message = pipeline.next(waiting: nil) else { continue }
                if case .endOfStream = message { break }
                throw fail(message)
            }
            // The file is closed on the way to READY; a failure to flush it is posted then, before the bus is
            // flushed on the way to NULL.
            gst_element_set_state(pipeline.element, GST_STATE_READY)
            if let failure = pipeline.pendingFailure() { throw fail(.error(failure)) }
            pipeline.stop()
        }
        finished = true
        do {
            try output.commit()
        } catch {
            throw error.code == ENOSPC ? .diskFull(path: path, frames: frames) : .output(error)
        }
    }

    /// Stops encoding and removes the partial file; ``path`` is left as it was. Safe to call more than once.
    package func cancel() {
        if case .gstreamer(let pipeline, _, _) = backend { pipeline.stop() }
        output.discard()
        finished = true
    }

    /// Cancels and returns the error to throw for what the bus said.
    private func fail(_ message: MediaPipeline.Message) -> MediaError {
        switch message {
        case .endOfStream:
            return fail(.encoding(path: path, reason: "the pipeline ended before the last frame"))
        case .error(let failure):
            return fail(
                failure.isDiskFull ? .diskFull(path: path, frames: frames) : .encoding(path: path, reason: failure.text)
            )
        }
    }

    /// Cancels and returns `error`.
    private func fail(_ error: MediaError) -> MediaError {
        cancel()
        return error
    }

    /// Cancels and returns the error for a GIF write failure.
    private func fail(_ error: OutputFileError) -> MediaError {
        cancel()
        return error.code == ENOSPC ? .diskFull(path: path, frames: frames) : .output(error)
    }
}
