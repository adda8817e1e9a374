import Synchronization
import TiltCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Replays a sensor log at its recorded pace (or faster), as a ``MotionSource``.
///
/// Samples go out at their recorded times, scaled by `speed`, on the continuous clock. A row that goes bad
/// mid-file follows the ``BadRowPolicy``: by default it is skipped and counted, reported as
/// ``MotionSourceEvent/rejected(reason:)`` with the file, line and column, and the replay goes on with the next row
/// (a corrupt row costs one sample, not the session); ``BadRowPolicy/strict`` stops the replay with its error. A
/// problem with the file as a whole (missing, unreadable, bad header, truncated) stops the replay with an error:
/// the daemon then reports the sensor `lost` with it, never `finished`.
///
/// Between runs (sensor on demand) the replay keeps its place in the log; sample times continue from there, with
/// no jump. With `loop`, the log starts over at its end, its times shifted so they keep increasing.
package final class LogReplaySource: MotionSource {
    /// Replay settings.
    package struct Configuration: Sendable, Hashable {
        /// The log's path (`.csv` or `.csv.gz`).
        package var path: String
        /// Playback speed: 1 is real time, 10 ten times faster.
        package var speed: Double
        /// Start over at the end of the log.
        package var loop: Bool
        /// Pass magnetometer readings on (false drops them, for 6D).
        package var useMagnetometer: Bool
        /// What a malformed row does: skipped and reported (the default), or the end of the replay.
        package var badRows = BadRowPolicy.skip

        package init(path: String, speed: Double = 1, loop: Bool = false, useMagnetometer: Bool = true) {
            self.path = path
            self.speed = speed
            self.loop = loop
            self.useMagnetometer = useMagnetometer
        }
    }

    private struct State: ~Copyable {
        var reader: SensorLogReader
        /// Added to the log's times after each loop, so times keep increasing.
        var timeOffset: Double = 0
        var firstTime: Double?
        var lastTime: Double?
        var lastInterval: Double = 0.01
        var finished = false
        /// A sample read but not delivered when the last run was cancelled, and the gap before it.
        var pending: MotionSample?
        var pendingGap: SampleGap?
    }

    package let configuration: Configuration
    package let sensors: [SensorDescription]
    package let name: String
    private let state: Mutex<State>

    package var summary: String {
        "replay \(configuration.path): \(sensors.flatMap(\.kinds).map(\.rawValue).joined(separator: ", "))"
    }

    /// Opens the log and reads its header.
    ///
    /// - Throws: ``SensorLogError`` when the log cannot be opened or its header is unusable.
    package init(configuration: Configuration) throws(SensorLogError) {
        self.configuration = configuration
        let reader = try SensorLogReader(path: configuration.path)
        let file = configuration.path.split(separator: "/").last.map(String.init) ?? configuration.path
        name = "replay:\(file)"
        var kinds: [SensorKind] = [.accelerometer, .gyroscope]
        if reader.hasMagnetometer && configuration.useMagnetometer { kinds.append(.magnetometer) }
        sensors = [
            SensorDescription(
                name: "replay", kinds: kinds, location: configuration.path,
                rateHz: reader.metadata["sampling_rate_hz"].flatMap(Double.init), mode: "replay")
        ]
        state = Mutex(State(reader: reader))
    }

    /// `path` made absolute with symbolic links resolved (as `hello` names it, so that a client can tell the file
    /// whatever its own folder: `tilt record` refuses to write over the log being replayed), or `path` as given when
    /// it cannot be resolved.
    static func absolute(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    package func run(rate: Double?, events: @Sendable (MotionSourceEvent) -> Void) async throws {
        let speed = configuration.speed > 0 ? configuration.speed : 1
        let clock = ContinuousClock()
        let start = clock.now
        var runStartTime: Double?
        if state.withLock({ $0.finished }) {
            events(.sensor(.finished, reason: "end of \(configuration.path)"))
            return
        }
        events(.sensor(.active, reason: "replaying \(configuration.path) at \(speed)x"))
        while !Task.isCancelled {
            var gap: SampleGap?
            let next: Result<MotionSample?, SensorLogError> = state.withLock { s in
                if let pending = s.pending {
                    s.pending = nil
                    gap = s.pendingGap
                    s.pendingGap = nil
                    return .success(pending)
                }
                do {
                    while true {
                        if let row = try s.reader.next() {
                            var sample = row.sample
                            gap = row.gap
                            if row.gap != nil, let last = s.lastTime, sample.time + s.timeOffset <= last {
                                // A gap where the log's time goes back (a recording across a daemon restart): the
                                // clock goes on one interval later, as after a loop, and the filter is told.
                                s.timeOffset = last + s.lastInterval - sample.time
                            } else if let last = s.lastTime, sample.time + s.timeOffset <= last {
                                // Keep the clock moving forward even if the log does not.
                                sample.time = last - s.timeOffset
                            }
                            if s.firstTime == nil { s.firstTime = sample.time }
                            sample.time += s.timeOffset
                            if let last = s.lastTime, sample.time > last { s.lastInterval = sample.time - last }
                            s.lastTime = sample.time
                            if !configuration.useMagnetometer { sample.mag = nil }
                            return .success(sample)
                        }
                        guard configuration.loop, let last = s.lastTime, let first = s.firstTime else {
                            s.finished = true
                            return .success(nil)
                        }
                        s.reader = try SensorLogReader(path: configuration.path)
                        s.timeOffset = last + s.lastInterval - first
                        s.firstTime = nil
                    }
                } catch let error as SensorLogError {
                    return .failure(error)
                } catch {
                    return .failure(SensorLogError(path: configuration.path, message: "\(error)"))
                }
            }
            switch next {
            case .failure(let error):
                guard error.isSkippable, configuration.badRows == .skip else {
                    throw MotionSourceError(.log(error))
                }
                events(.rejected(reason: error.description))
            case .success(nil):
                events(.sensor(.finished, reason: "end of \(configuration.path)"))
                return
            case .success(let sample?):
                if runStartTime == nil { runStartTime = sample.time }
                let due = start.advanced(by: .seconds((sample.time - runStartTime!) / speed))
                if due > clock.now.advanced(by: .microseconds(500)) {
                    do {
                        try await clock.sleep(until: due)
                    } catch {
                        // Cancelled: this sample was not delivered; step back so the next run starts with it.
                        state.withLock { s in
                            s.pending = sample
                            s.pendingGap = gap
                        }
                        return
                    }
                }
                if let gap { events(.gap(gap)) }
                events(.sample(sample))
            }
        }
    }
}

extension LogReplaySource.Configuration: MotionSourceConfiguration {
    package func open() throws -> any MotionSource { try LogReplaySource(configuration: self) }
    package var openFailure: String { "cannot replay" }
    package var calibrationExemption: String? { "a replayed log is already in the device frame" }
}
