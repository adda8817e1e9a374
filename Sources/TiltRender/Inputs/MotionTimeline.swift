import TiltCore

/// Attitude frames in time order, looked up by time: what a replayed sensor log drives a frame sequence with.
///
/// The renderer only consumes frames; reading and fusing the log happens outside it (`TiltPlayback.LogReplay`), so
/// `TiltRender` does not link the sensor stack.
package struct MotionTimeline: Sendable {
    /// The frames, in time order, with times relative to the start.
    package let frames: [AttitudeFrame]

    /// Creates a timeline from frames in time order (times relative to the start).
    package init(frames: [AttitudeFrame]) {
        self.frames = frames
    }

    /// The timeline's length in seconds.
    package var duration: Double { frames.last?.time ?? 0 }

    /// The frame nearest to `time` seconds after the start.
    package func frame(at time: Double) -> AttitudeFrame? {
        guard !frames.isEmpty else { return nil }
        var lo = 0
        var hi = frames.count - 1
        while lo < hi {
            let mid = (lo + hi) / 2
            if frames[mid].time < time { lo = mid + 1 } else { hi = mid }
        }
        if lo > 0, abs(frames[lo - 1].time - time) <= abs(frames[lo].time - time) { return frames[lo - 1] }
        return frames[lo]
    }
}
