import Foundation
import Synchronization
import TiltClient
import TiltCore
import TiltSensors
import TiltWire

/// `tilt record`'s state machine: the live sensor stream, through tiltd (its raw samples, across reconnections) or
/// straight from IIO, appended to a sensor log, flushed every half second, with progress once a second.
///
/// The log is opened when the first description of the sensors is known (tiltd's `hello`, or the IIO devices), so a
/// recording that never gets a sample leaves no file. A failure (a full disk, a log that cannot be opened, a daemon
/// that never answers) ends the recording; what was written before it stays in the log. The command decides when to
/// stop (``failed``, a signal, a duration) and calls ``finish()``.
public final class Recording: Sendable {
    /// Where samples come from.
    public enum Source: Sendable, Hashable {
        /// tiltd's raw samples on the socket at this path.
        case daemon(socketPath: String)
        /// The IIO sensors of a libiio context (`local:`, `ip:HOST`), sampled at `rate` Hz when given.
        case iio(uri: String, rate: Double?)
    }

    /// How a recording ended.
    public struct Outcome: Sendable, Hashable {
        /// Samples written.
        public var rows: Int
        /// Samples the source rejected (damaged, out of range).
        public var rejected: Int
        /// Whether a log was opened (the sensors were described): without one there is nothing to keep.
        public var opened: Bool
        /// Why the recording stopped early or could not be finished, or `nil`.
        public var failure: String?
    }

    /// How long a recording through tiltd waits for a first connection (a daemon started just before may not have
    /// opened its socket yet) before it stops with the cause.
    public static let startGrace: Duration = .seconds(2)

    private let source: Source
    private let log: String
    private let output: String
    private let say: @Sendable (String) -> Void
    private let state = Mutex(State())
    private let task = Mutex<Task<Void, any Error>?>(nil)

    /// A recording from `source` into the log file `log`, named `output` in messages.
    /// - Parameter say: shows progress and events (standard error); each text carries its own line breaks.
    public init(source: Source, log: String, output: String, say: @escaping @Sendable (String) -> Void) {
        self.source = source
        self.log = log
        self.output = output
        self.say = say
    }

    /// Starts recording.
    /// - Throws: the error of opening the IIO sensors (a daemon is only connected to later, with retries).
    public func start() throws {
        let running: Task<Void, any Error>
        switch source {
        case .iio(let uri, let rate): running = try recordFromIIO(uri: uri, rate: rate)
        case .daemon(let path): running = recordFromDaemon(socketPath: path)
        }
        task.withLock { $0 = running }
    }

    /// Whether the recording has failed and should be finished.
    public var failed: Bool { state.withLock { $0.failure != nil } }

    /// Stops the source, closes the log and says how the recording went.
    /// - Returns: the outcome, and the error the source's task ended with, if any.
    public func finish() async -> (outcome: Outcome, sourceError: (any Error)?) {
        let running = task.withLock { $0 }
        running?.cancel()
        var sourceError: (any Error)?
        do { try await running?.value } catch { sourceError = error }
        var outcome = state.withLock { s -> Outcome in
            guard let writer = s.writer.take() else {
                return Outcome(rows: 0, rejected: s.rejected, opened: false, failure: s.failure)
            }
            var failure = s.failure
            do { try writer.close() } catch { failure = failure ?? "\(error)" }
            return Outcome(rows: writer.rowCount, rejected: s.rejected, opened: true, failure: failure)
        }
        if !outcome.opened {
            outcome.failure = outcome.failure ?? state.withLock { $0.notConnected } ?? "no samples arrived"
        }
        return (outcome, sourceError)
    }

    /// What the capture shares with the command.
    private struct State: ~Copyable {
        var writer: SensorLogWriter?
        var failure: String?
        /// Why tiltd could not be reached yet, while a recording through it waits for its first connection.
        var notConnected: String?
        var firstTime: Double?
        var lastTime = 0.0
        var lastFlush = -Double.infinity
        var lastProgress = -Double.infinity
        var rejected = 0

        /// Appends `sample`, flushing every half second and showing progress every second.
        mutating func record(_ sample: MotionSample, into output: String, say: (String) -> Void) {
            guard failure == nil, let writer = writer.take() else { return }
            defer { self.writer = consume writer }
            do {
                try writer.append(sample)
                if firstTime == nil { firstTime = sample.time }
                lastTime = sample.time
                let now = Date().timeIntervalSinceReferenceDate
                if now - lastFlush >= 0.5 {
                    try writer.flush()
                    lastFlush = now
                }
                if now - lastProgress >= 1 {
                    lastProgress = now
                    let seconds = String(format: "%.1f", lastTime - (firstTime ?? lastTime))
                    say("\rrecording \(output): \(writer.rowCount) samples, \(seconds) s of sensor time")
                }
            } catch {
                failure = "\(error)"
            }
        }
    }

    private func record(_ sample: MotionSample) {
        let (output, say) = (output, say)
        state.withLock { $0.record(sample, into: output, say: say) }
    }

    /// Opens the log, inside the lock that guards it; a failure is kept as the recording's failure, which ends it.
    /// - Returns: whether the log is open.
    private func install(sensors: [SensorDescription], source: String) -> Bool {
        let log = log
        return state.withLock { s -> Bool in
            do {
                s.writer = try SensorLogWriter(recordingTo: log, sensors: sensors, source: source)
                return true
            } catch {
                s.failure = "\(error)"
                return false
            }
        }
    }

    private func recordFromIIO(uri: String, rate: Double?) throws -> Task<Void, any Error> {
        let source = try IIOMotionSource(uri: uri)
        guard install(sensors: source.sensors, source: "\(source.name) \(uri)") else { return Task {} }
        return Task { [self] in
            try await source.run(rate: rate) { event in
                switch event {
                case .sample(let sample): record(sample)
                case .rejected: state.withLock { $0.rejected += 1 }
                case .sensor(let st, let reason): say("\nsensor \(st.rawValue): \(reason)\n")
                case .busy(let busy): say("\nsensor: \(busy?.explanation() ?? "buffer back")\n")
                }
            }
        }
    }

    /// Records the daemon's raw sample stream (`watch` with `raw`), across reconnections.
    private func recordFromDaemon(socketPath path: String) -> Task<Void, any Error> {
        let subscriber = TiltSubscriber(configuration: .init(socketPath: path, rate: 1, raw: true))
        let started = ContinuousClock.now
        return Task { [self] in
            defer { subscriber.close() }
            for await event in subscriber.events() {
                if Task.isCancelled { return }
                switch event {
                case .connected(let hello):
                    say("recording from \(hello.daemon) at \(path)\n")
                    if state.withLock({ $0.writer == nil && $0.firstTime == nil }) {
                        let sensors = hello.sensors.map {
                            SensorDescription(
                                name: $0.name, kinds: $0.kinds, location: $0.location, rateHz: $0.rate, mode: $0.mode)
                        }
                        guard install(sensors: sensors, source: "\(hello.daemon) at \(path)") else { return }
                    }
                case .message(.sample(let sample)):
                    record(sample)
                case .message(.sensor(let e)):
                    say("\nsensor \(e.state): \(e.reason)\n")
                case .disconnected(let reason):
                    // Never connected for a while: no daemon is coming (one just started gets `startGrace` to open
                    // its socket), and there is no recording to keep a gap in, so stop with the cause.
                    let neverConnected = state.withLock { $0.writer == nil && $0.firstTime == nil }
                    if neverConnected {
                        let reason = "cannot record through tiltd: \(reason)"
                        guard ContinuousClock.now - started >= Self.startGrace else {
                            state.withLock { $0.notConnected = reason }
                            continue
                        }
                        state.withLock { $0.failure = $0.failure ?? reason }
                        return
                    }
                    say("\ndisconnected: \(reason); retrying (the log will have a gap)\n")
                case .message(.error(let message)):
                    say("\nerror: tiltd answered: \(message)\n")
                case .message:
                    break  // a recording keeps the raw samples only
                }
            }
        }
    }
}
