import CGStreamer

/// One decoded picture from a ``VideoSource``: RGBA8, rows top-down, straight alpha, sRGB-encoded, as the decoder
/// gave it (GStreamer's buffer, not copied).
///
/// Holds a reference to GStreamer's buffer (not to the app sink's sample, which the sink reuses), so holding a frame
/// never blocks the pipeline for long; keep it no longer than it is on show. Immutable, so it may cross threads.
package final class VideoFrame: @unchecked Sendable {
    /// Width in pixels.
    package let width: Int
    /// Height in pixels.
    package let height: Int
    /// Bytes from one row to the next (at least `width * 4`).
    package let stride: Int
    /// When it is shown, seconds: the buffer's presentation time, plus, for a stepped file, the length of the loops
    /// played before it. Live frames carry the pipeline's running time.
    package let time: Double
    /// How long it is shown, seconds, when the stream says.
    package let duration: Double?
    private let buffer: UnsafeMutablePointer<GstBuffer>

    /// The frame of `sample` when it holds RGBA video, else `nil`; releases `sample` (one reference) either way.
    init?(taking sample: OpaquePointer, timeOffset: Double = 0) {
        defer { tilt_gst_sample_unref(sample) }
        var width: Int32 = 0
        var height: Int32 = 0
        var stride: Int32 = 0
        guard tilt_gst_sample_video_info(sample, &width, &height, &stride) != 0,
            let buffer = gst_sample_get_buffer(sample),
            width > 0, height > 0, stride >= width * 4
        else { return nil }
        self.buffer = tilt_gst_buffer_ref(buffer)
        self.width = Int(width)
        self.height = Int(height)
        self.stride = Int(stride)
        let none = tilt_gst_clock_time_none()
        let pts = tilt_gst_buffer_pts(buffer)
        let length = tilt_gst_buffer_duration(buffer)
        time = (pts == none ? 0 : Double(pts) / 1e9) + timeOffset
        duration = length == none ? nil : Double(length) / 1e9
    }

    deinit {
        tilt_gst_buffer_unref(buffer)
    }

    /// Calls `body` with the pixels (`stride * height` bytes, or fewer for a last row cut to `width * 4`).
    /// - Returns: what `body` returns, or `nil` when the buffer cannot be read.
    package func withPixels<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R? {
        var map = GstMapInfo()
        guard gst_buffer_map(buffer, &map, GST_MAP_READ) != 0 else { return nil }
        defer { gst_buffer_unmap(buffer, &map) }
        let needed = stride * (height - 1) + width * 4
        guard let data = map.data, Int(map.size) >= needed else { return nil }
        return try body(UnsafeRawBufferPointer(start: data, count: min(Int(map.size), stride * height)))
    }

    /// The pixels copied out, rows packed (`width * 4` bytes each); empty when the buffer cannot be read.
    package var pixels: [UInt8] {
        withPixels { bytes in
            var packed = [UInt8](repeating: 0, count: width * height * 4)
            packed.withUnsafeMutableBytes { out in
                for row in 0..<height {
                    let from = bytes.baseAddress! + row * stride
                    (out.baseAddress! + row * width * 4).copyMemory(from: from, byteCount: width * 4)
                }
            }
            return packed
        } ?? []
    }
}
