import FoundationEssentials
import Synchronization
import TiltCore
import TiltFusion
import TiltSensors

/// `tilt replay`: a sensor log played through the daemon's pipeline in this process, at the recorded pace, with the
/// frames due at a rate of log time handed out. No daemon or socket is involved.
package struct PipelineReplay: Sendable {
    /// The log's path.
    package var log: String
    /// Replay speed: 1 is real time.
    package var speed: Double
    /// Frames handed out per second of log time.
    package var rate: Double
    /// Whether the magnetometer is fused (9D).
    package var useMagnetometer: Bool
    /// The tilt soft-clamp limit, radians.
    package var limit: Double
    /// What to do with a malformed row.
    package var badRows: BadRowPolicy

    /// A replay of `log` (see the properties).
    package init(
        log: String, speed: Double = 1, rate: Double = 10, useMagnetometer: Bool = true, limit: Double = 0.5,
        badRows: BadRowPolicy = .skip
    ) {
        self.log = log
        self.speed = speed
        self.rate = rate
        self.useMagnetometer = useMagnetometer
        self.limit = limit
        self.badRows = badRows
    }

    /// What a replay did: samples fused and bad rows skipped.
    package struct Summary: Sendable, Hashable {
        /// Samples fused.
        package var fused: UInt64
        /// Rows skipped as malformed.
        package var skipped: Int
        /// Gaps in the log (markers, time going back), not fused across.
        package var gaps: Int = 0

        /// What `tilt replay` prints at the end.
        package var text: String {
            "replayed \(fused) samples, skipped \(skipped) bad rows"
                + (gaps > 0 ? ", \(gaps) gap\(gaps == 1 ? "" : "s") not fused across" : "")
        }
    }

    /// Plays the log: `show` gets each frame that is due, `report` the lines for a person (skipped rows, the sensor
    /// leaving the active state).
    ///
    /// - Throws: ``SensorLogError`` when the log cannot be read (it names the file), or what the source throws.
    package func run(
        show: @escaping @Sendable (AttitudeFrame) -> Void, report: @escaping @Sendable (String) -> Void
    ) async throws -> Summary {
        var replay = LogReplaySource.Configuration(path: log, speed: speed, useMagnetometer: useMagnetometer)
        replay.badRows = badRows
        let source = try LogReplaySource(configuration: replay)
        var configuration = MotionPipeline.Configuration()
        configuration.filter.useMagnetometer = useMagnetometer
        configuration.shaping.limit = limit
        let state = Mutex(
            (
                pipeline: MotionPipeline(configuration: configuration), schedule: ReplaySchedule(rate: rate),
                rejected: SkippedRows(), gaps: 0
            ))
        let name = source.name
        try await source.run(rate: nil) { event in
            switch event {
            case .sample(let sample):
                let frame = state.withLock { state -> AttitudeFrame? in
                    let frame = state.pipeline.process(sample, source: name)
                    return state.schedule.isDue(sample.time) ? frame : nil
                }
                if let frame { show(frame) }
            case .rejected(let reason):
                if let line = state.withLock({ $0.rejected.add(reason) }) { report(line) }
            case .sensor(let sensorState, let reason):
                if sensorState != .active { report("\(sensorState): \(reason)") }
            case .gap:
                // A marked gap, or time going back: not fused as motion; the frame schedule starts again.
                state.withLock { state in
                    state.pipeline.markGap()
                    state.schedule = ReplaySchedule(rate: rate)
                    state.gaps += 1
                }
            case .busy:
                break
            }
        }
        return state.withLock { Summary(fused: $0.pipeline.nextSeq, skipped: $0.rejected.count, gaps: $0.gaps) }
    }
}

/// When a replay shows a frame: every `1/rate` seconds of log time, starting again after a gap in the log.
package struct ReplaySchedule: Sendable, Hashable {
    /// Seconds of log time between frames.
    package let period: Double
    /// The log time of the next frame due; `nil` before the first.
    package private(set) var nextShown: Double?

    /// A schedule of `rate` frames per second of log time.
    package init(rate: Double) {
        period = 1 / rate
    }

    /// Whether the sample at `time` is shown; if so, the next frame is scheduled.
    package mutating func isDue(_ time: Double) -> Bool {
        if let next = nextShown, time < next { return false }
        // Keep to the schedule; after a gap in the log, start it again from this sample.
        if let next = nextShown, time - next < period {
            nextShown = next + period
        } else {
            nextShown = time + period
        }
        return true
    }
}
