import TiltCore
import TiltFusion
import TiltSensors

/// Attitude frames from a sensor-log replay, run through the fusion pipeline, looked up by time.
public struct MotionTimeline: Sendable {
    /// The fused frames, in time order, with times relative to the log's first sample.
    public let frames: [AttitudeFrame]

    /// Reads `path` (CSV or CSV.gz) and fuses every sample.
    /// - Throws: `RenderError.read` naming the file and what is wrong with it.
    public init(replaying path: String) throws(RenderError) {
        let log: SensorLog
        do { log = try SensorLog.read(path: path) } catch {
            throw .read(path, reason: "\(error)")
        }
        guard let first = log.samples.first else {
            throw .read(path, reason: "the log holds no samples; record one with `tilt record`")
        }
        var pipeline = MotionPipeline()
        var frames: [AttitudeFrame] = []
        frames.reserveCapacity(log.samples.count)
        for sample in log.samples {
            var frame = pipeline.process(sample, source: "replay")
            frame.time -= first.time
            frames.append(frame)
        }
        self.frames = frames
    }

    /// Creates a timeline from frames already made (times relative to the start).
    public init(frames: [AttitudeFrame]) {
        self.frames = frames
    }

    /// The log's length in seconds.
    public var duration: Double { frames.last?.time ?? 0 }

    /// The frame nearest to `time` seconds after the start.
    public func frame(at time: Double) -> AttitudeFrame? {
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
