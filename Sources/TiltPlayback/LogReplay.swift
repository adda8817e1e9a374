import TiltCore
import TiltFusion
import TiltSensors

/// Turns a recorded sensor log into the attitude frames a renderer plays back, fused exactly as `tiltd` would.
///
/// This lives outside `TiltRender` so that the renderer consumes frames only and does not link the sensor stack
/// (libiio, zlib, libsystemd): `tiltfx` reads the log here and hands the frames to `TiltRender.MotionTimeline`.
package enum LogReplay {
    /// Reads `path` (CSV or CSV.gz) and fuses every sample.
    /// - Parameters:
    ///   - strict: Stop at the first bad row (`--strict`) instead of skipping and counting it, the bad-row policy of
    ///     every log reader (``TiltSensors/BadRowPolicy``).
    ///   - report: Called with each line to show a person: the skipped rows reported, then their summary.
    /// - Returns: the frames in time order, with times relative to the log's first sample.
    /// - Throws: ``PlaybackError`` naming the file and what is wrong with it (a truncated log included).
    package static func frames(
        path: String, strict: Bool = false, report: (String) -> Void = { _ in }
    ) throws(PlaybackError) -> [AttitudeFrame] {
        let log: SensorLog
        do { log = try SensorLog.read(path: path, badRows: BadRowPolicy(strict: strict), report: report) } catch {
            throw PlaybackError(.unreadable, path: path, reason: "\(error)")
        }
        return try frames(of: log)
    }

    /// Fuses every sample of `log`, not across its gaps (``SensorLog/gaps``).
    /// - Returns: the frames in time order, with times relative to the log's first sample.
    /// - Throws: ``PlaybackError`` when the log holds no samples.
    package static func frames(of log: SensorLog) throws(PlaybackError) -> [AttitudeFrame] {
        guard let first = log.samples.first else {
            throw PlaybackError(
                .empty, path: log.path, reason: "the log holds no samples; record one with `tilt record`")
        }
        var pipeline = MotionPipeline()
        var frames: [AttitudeFrame] = []
        frames.reserveCapacity(log.samples.count)
        // After a gap whose time goes back, the times go on one interval after the last, as tiltd's replay does, so
        // the frames stay in time order.
        var offset = 0.0
        var interval = 0.01
        for (index, var sample) in log.samples.enumerated() {
            if log.gaps[index] != nil {
                pipeline.markGap()
                if let last = frames.last?.time, sample.time + offset - first.time <= last {
                    offset = last + first.time + interval - sample.time
                }
            }
            sample.time += offset
            var frame = pipeline.process(sample, source: "replay")
            frame.time -= first.time
            if let last = frames.last?.time, frame.time > last { interval = frame.time - last }
            frames.append(frame)
        }
        return frames
    }
}
