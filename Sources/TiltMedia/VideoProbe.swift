import CGStreamer

/// Reads a video file back, frame by frame, through GStreamer (`filesrc ! decodebin ! videoconvert ! appsink`): to
/// check what ``VideoEncoder`` wrote, and for any caller that wants a file's frames as RGBA.
package enum VideoProbe {
    /// One decoded frame.
    package struct Frame: Sendable {
        /// Its index in the file, from 0.
        package var index: Int
        /// Width in pixels.
        package var width: Int
        /// Height in pixels.
        package var height: Int
        /// Its presentation time in seconds, when the file says.
        package var time: Double?
        /// RGBA8 pixels, top row first, `width * 4` bytes a row.
        package var rgba: [UInt8]

        /// The pixel at (`x`, `y`) as red, green, blue, alpha.
        package func pixel(x: Int, y: Int) -> (UInt8, UInt8, UInt8, UInt8) {
            let p = (y * width + x) * 4
            return (rgba[p], rgba[p + 1], rgba[p + 2], rgba[p + 3])
        }
    }

    /// What a file holds.
    package struct Summary: Sendable, Equatable {
        /// Frames decoded.
        package var frames: Int
        /// Width of the frames (of the last, should it change).
        package var width: Int
        /// Height of the frames.
        package var height: Int

        /// A summary of `frames` frames of `width`×`height`.
        package init(frames: Int, width: Int, height: Int) {
            (self.frames, self.width, self.height) = (frames, width, height)
        }
    }

    /// Decodes every frame of `path`, handing each to `body` (which may keep what it needs).
    /// - Throws: ``MediaError/decoding(path:reason:)`` with GStreamer's reason (no such file, not a video).
    @discardableResult
    package static func scan(_ path: String, _ body: (Frame) throws -> Void = { _ in }) throws -> Summary {
        try MediaFramework.start()
        let pipeline: MediaPipeline
        do {
            pipeline = try MediaPipeline(
                "filesrc name=source ! decodebin ! videoconvert ! video/x-raw,format=RGBA ! appsink name=sink sync=false"
            )
        } catch {
            throw MediaError.decoding(path: path, reason: error.reason)
        }
        guard let source = pipeline.child("source"), let sink = pipeline.child("sink") else {
            throw MediaError.decoding(path: path, reason: "the pipeline lost its source or sink")
        }
        pipeline.set("location", path, on: source)
        _ = pipeline.play()
        var summary = Summary(frames: 0, width: 0, height: 0)
        let appSink = tilt_gst_app_sink(sink)
        while true {
            // Waits a little at a time: on an error (no such file, not a video) no end-of-stream ever comes.
            guard let sample = gst_app_sink_try_pull_sample(appSink, 50_000_000) else {
                if gst_app_sink_is_eos(appSink) != 0 { break }
                if let failure = pipeline.pendingFailure() {
                    throw MediaError.decoding(path: path, reason: failure.text)
                }
                continue
            }
            defer { tilt_gst_sample_unref(sample) }
            guard let buffer = gst_sample_get_buffer(sample), let caps = gst_sample_get_caps(sample) else { continue }
            var info = GstVideoInfo()
            guard gst_video_info_from_caps(&info, caps) != 0 else { continue }
            let (width, height, stride) = (Int(info.width), Int(info.height), Int(info.stride.0))
            var map = GstMapInfo()
            guard gst_buffer_map(buffer, &map, GST_MAP_READ) != 0 else { continue }
            var rgba = [UInt8](repeating: 0, count: width * height * 4)
            if let data = map.data, map.size >= stride * (height - 1) + width * 4 {
                rgba.withUnsafeMutableBytes { out in
                    for y in 0..<height {
                        (out.baseAddress! + y * width * 4).copyMemory(from: data + y * stride, byteCount: width * 4)
                    }
                }
            }
            gst_buffer_unmap(buffer, &map)
            let pts = buffer.pointee.pts
            let time = pts == tilt_gst_clock_time_none() ? nil : Double(pts) / 1e9
            try body(Frame(index: summary.frames, width: width, height: height, time: time, rgba: rgba))
            summary = Summary(frames: summary.frames + 1, width: width, height: height)
        }
        if let failure = pipeline.pendingFailure() { throw MediaError.decoding(path: path, reason: failure.text) }
        return summary
    }

    /// Every frame of `path` (for short videos; ``scan(_:_:)`` keeps only what it is asked to).
    package static func frames(of path: String) throws -> [Frame] {
        var frames: [Frame] = []
        try scan(path) { frames.append($0) }
        return frames
    }
}
