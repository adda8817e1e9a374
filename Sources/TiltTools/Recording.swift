import FoundationEssentials
import Glibc
import Synchronization
import TiltClient
import TiltCore
import TiltIIO
import TiltSensors
import TiltWire

/// `tilt record`'s state machine: the live sensor stream, through tiltd (its raw samples, across reconnections) or
/// straight from IIO, appended to a sensor log, flushed every half second, with progress once a second.
///
/// The log is opened when the first description of the sensors is known (tiltd's `hello`, or the IIO devices), so a
/// recording that never gets a sample leaves no file. A failure (a full disk, a log that cannot be opened, a daemon
/// that never answers) ends the recording; what was written before it stays in the log. The command decides when to
/// stop (``failed``, a signal, a duration) and calls ``finish()``.
package final class Recording: Sendable {
    /// Where samples come from.
    package enum Source: Sendable, Hashable {
        /// tiltd's raw samples on the socket at this path.
        case daemon(socketPath: String)
        /// The IIO sensors of a libiio context (`local:`, `ip:HOST`), sampled at `rate` Hz when given.
        case iio(uri: String, rate: Double?)
    }

    /// How a recording ended.
    package struct Outcome: Sendable, Hashable {
        /// Samples written.
        package var rows: Int
        /// Samples the source rejected (damaged, out of range).
        package var rejected: Int
        /// Whether a log was opened (the sensors were described): without one there is nothing to keep.
        package var opened: Bool
        /// Why the recording stopped early or could not be finished, or `nil`.
        package var failure: String?
        /// What kind of failure, when there is one (the words are ``failure``).
        package var failureKind: RecordingErrorKind?
        /// Samples tiltd could not send (its `gap` messages), each gap marked in the log.
        package var lost: Int = 0
        /// Gaps marked in the log: samples lost, and reconnections (whose loss is not known).
        package var gaps: Int = 0
        /// Times the recording reconnected to tiltd after it had begun (each a gap whose loss is not known).
        package var reconnections: Int = 0
        /// Why the source ended the recording by itself (a replay that finished), or `nil`.
        package var sourceEnded: String?
    }

    /// How long a recording through tiltd waits for a first connection (a daemon started just before may not have
    /// opened its socket yet) before it stops with the cause.
    package static let startGrace: Duration = .seconds(2)

    private let source: Source
    private let log: String
    private let output: String
    private let say: @Sendable (String) -> Void
    private let state = Mutex(State())
    private let task = Mutex<Task<Void, any Error>?>(nil)

    /// A recording from `source` into the log file `log`, named `output` in messages.
    /// - Parameter say: shows progress and events (standard error); each text carries its own line breaks.
    package init(source: Source, log: String, output: String, say: @escaping @Sendable (String) -> Void) {
        self.source = source
        self.log = log
        self.output = output
        self.say = say
    }

    /// Starts recording.
    /// - Throws: the error of opening the IIO sensors (a daemon is only connected to later, with retries).
    package func start() throws {
        let running: Task<Void, any Error>
        switch source {
        case .iio(let uri, let rate): running = try recordFromIIO(uri: uri, rate: rate)
        case .daemon(let path): running = recordFromDaemon(socketPath: path)
        }
        task.withLock { $0 = running }
    }

    /// Whether the recording has failed and should be finished.
    package var failed: Bool { state.withLock { $0.failure != nil } }

    /// Why the source has ended (a replay that `finished`): the recording is complete and should be finished.
    package var sourceEnded: String? { state.withLock { $0.sourceEnded } }

    /// Stops the source, closes the log and says how the recording went.
    /// - Returns: the outcome, and the error the source's task ended with, if any.
    package func finish() async -> (outcome: Outcome, sourceError: (any Error)?) {
        let running = task.withLock { $0 }
        running?.cancel()
        var sourceError: (any Error)?
        do { try await running?.value } catch { sourceError = error }
        state.withLock { $0.closeGap() }
        var outcome = state.withLock { s -> Outcome in
            guard let writer = s.writer.take() else {
                return Outcome(
                    rows: 0, rejected: s.rejected, opened: false, failure: s.failure?.message,
                    failureKind: s.failure?.kind, lost: s.lost, gaps: 0, reconnections: s.reconnections,
                    sourceEnded: s.sourceEnded)
            }
            var failure = s.failure
            do { try writer.close() } catch { failure = failure ?? RecordingError(.log, "\(error)") }
            return Outcome(
                rows: writer.rowCount, rejected: s.rejected, opened: true, failure: failure?.message,
                failureKind: failure?.kind, lost: s.lost, gaps: writer.gapCount,
                reconnections: s.reconnections, sourceEnded: s.sourceEnded)
        }
        if !outcome.opened, outcome.failure == nil, let ended = outcome.sourceEnded {
            outcome.failure = "\(ended); nothing was recorded"
            outcome.failureKind = .sourceEnded
        }
        if !outcome.opened, outcome.failure == nil {
            let notConnected = state.withLock { $0.notConnected }
            outcome.failure = notConnected ?? "no samples arrived"
            outcome.failureKind = notConnected == nil ? .noSamples : .notConnected
        }
        return (outcome, sourceError)
    }

    /// What the capture shares with the command.
    private struct State: ~Copyable {
        var writer: SensorLogWriter?
        var failure: RecordingError?
        /// Samples tiltd said it could not send.
        var lost = 0
        /// Reconnections after the first connection.
        var reconnections = 0
        /// A gap to mark before the next sample (a reconnection, a `gap` message).
        var pendingGap: SampleGap?
        /// Why the source ended the recording, once it has.
        var sourceEnded: String?
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
                if let gap = pendingGap.take() { try writer.appendGap(gap) }
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
                    let seconds = String(printf: "%.1f", lastTime - (firstTime ?? lastTime))
                    say("\rrecording \(output): \(writer.rowCount) samples, \(seconds) s of sensor time")
                }
            } catch {
                failure = RecordingError(.log, "\(error)")
            }
        }

        /// Marks a gap before the next sample: merged with one already waiting (a reconnection that also lost
        /// samples), and only once something was recorded (before the first sample there is nothing to break).
        mutating func markGap(_ gap: SampleGap) {
            lost += gap.count ?? 0
            guard firstTime != nil else { return }
            pendingGap = pendingGap.map { $0.merged(with: gap) } ?? gap
        }

        /// Writes a gap still waiting at the end (samples lost after the last one that came).
        mutating func closeGap() {
            guard failure == nil, let gap = pendingGap.take(), let writer = writer.take() else { return }
            defer { self.writer = consume writer }
            do { try writer.appendGap(gap) } catch { failure = RecordingError(.log, "\(error)") }
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
                s.failure = RecordingError(.log, "\(error)")
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
                case .gap(let gap): state.withLock { $0.markGap(gap) }
                }
            }
        }
    }

    /// The source has ended the recording (a replay that finished): `reason` says why.
    private func endSource(_ reason: String) {
        state.withLock { $0.sourceEnded = $0.sourceEnded ?? reason }
    }

    /// Why a recording into `output` may not go on with the daemon that sent `hello`: the output is the log the
    /// daemon replays (`hello` names it as its sensor's `location`), which recording over would replace with a
    /// recording of itself, `--force` or not. Compared by device and inode (links, relative paths, a path the daemon
    /// resolved from its own folder), then by the path as given.
    package static func refusal(hello: ServerMessage.Hello, output: String) -> RecordingError? {
        var target = stat()
        let exists = stat(output, &target) == 0
        for sensor in hello.sensors where sensor.mode == "replay" {
            var source = stat()
            let same =
                exists && stat(sensor.location, &source) == 0 && source.st_dev == target.st_dev
                && source.st_ino == target.st_ino
            if same || sensor.location == output {
                return RecordingError(
                    .outputIsReplayedLog,
                    "cannot record into \(output): it is the log tiltd replays (\(sensor.location)); recording over "
                        + "it would replace the source with a recording of itself, --force or not. Choose another "
                        + "output")
            }
        }
        return nil
    }

    /// Records the daemon's raw sample stream (`watch` with `raw`), across reconnections.
    private func recordFromDaemon(socketPath path: String) -> Task<Void, any Error> {
        // Lossless: every raw sample the daemon sends is kept; what it could not send comes as `gap` messages.
        let subscriber = TiltSubscriber(configuration: .init(socketPath: path, rate: 1, raw: true, lossless: true))
        let started = ContinuousClock.now
        let output = output
        return Task { [self] in
            defer { subscriber.close() }
            var connections = 0
            var replaying = false
            for await event in subscriber.events() {
                if Task.isCancelled { return }
                switch event {
                case .connected(let hello):
                    if let refusal = Self.refusal(hello: hello, output: output) {
                        state.withLock { $0.failure = $0.failure ?? refusal }
                        return
                    }
                    connections += 1
                    replaying = !hello.sensors.isEmpty && hello.sensors.allSatisfy { $0.mode == "replay" }
                    say("recording from \(hello.daemon) at \(path)\n")
                    if connections > 1 {
                        // Whatever the daemon sent while we were away is lost, and a restarted daemon's clock may
                        // start over: the log says so rather than fuse across it.
                        state.withLock { s in
                            s.reconnections += 1
                            s.markGap(SampleGap(reason: "reconnected to tiltd"))
                        }
                    }
                    if hello.sensor == .finished {
                        endSource("the sensor had finished before recording began (\(hello.daemon) at \(path))")
                        return
                    }
                    if state.withLock({ $0.writer == nil && $0.firstTime == nil }) {
                        let sensors = hello.sensors.map {
                            SensorDescription(
                                name: $0.name, kinds: $0.kinds.map(SensorKind.init(rawValue:)), location: $0.location,
                                rateHz: $0.rate, mode: $0.mode)
                        }
                        guard install(sensors: sensors, source: "\(hello.daemon) at \(path)") else { return }
                    }
                case .message(.sample(let sample)):
                    record(sample)
                case .message(.gap(let gap)):
                    say(
                        "\ntiltd could not send \(gap.count) samples (t \(gap.first) to \(gap.last) s); marked in the log\n"
                    )
                    state.withLock { $0.markGap(gap.sampleGap) }
                case .message(.sensor(let e)):
                    say("\nsensor \(e.state): \(e.reason)\n")
                    if e.state == .finished || (e.state == .lost && replaying) {
                        // The replay played its whole log (or stopped for good at a damaged one: a replay that is
                        // lost stays so): nothing more will come, and everything sent is here.
                        endSource("the sensor \(e.state == .lost ? "is lost" : "finished"): \(e.reason)")
                        return
                    }
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
                        state.withLock { $0.failure = $0.failure ?? RecordingError(.notConnected, reason) }
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

/// What can stop a recording.
package enum RecordingErrorKind: Sendable, Hashable {
    /// The log cannot be written (a full disk, a missing folder).
    case log
    /// tiltd could not be reached.
    case notConnected
    /// Nothing arrived to record.
    case noSamples
    /// The output is the log tiltd replays: refused even with `--force`.
    case outputIsReplayedLog
    /// The source had ended (a replay that finished) before anything was recorded.
    case sourceEnded
}

/// A recording's failure: its kind and the words for people.
package typealias RecordingError = TiltError<RecordingErrorKind>
