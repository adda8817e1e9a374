import ArgumentParser
import Foundation
import Synchronization
import TiltClient
import TiltCore
import TiltSensors
import TiltWire

/// `tilt record`: records the live sensor stream into a sensor log, through tiltd or directly from IIO.
struct Record: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Record the live sensors into a sensor log (CSV, gzip when the name ends in .gz).",
        discussion: """
            With a running tiltd (--from auto finds one on the socket), records the raw samples the daemon fuses, \
            so replaying the log gives the same fused output as the live run; the daemon keeps serving its other \
            clients. Without one, reads the sensors directly through libiio. Rows are flushed every half second, \
            so a full disk loses at most that much; progress goes to standard error. Ctrl-C or SIGTERM ends the \
            recording. The log is written as .partial-XXXXXX-NAME in the same folder and renamed to FILE when \
            the recording ends; an existing FILE is replaced only with --force.
            """)

    enum From: String, ExpressibleByArgument, CaseIterable {
        case auto, daemon, iio
    }

    @Option(name: .long, help: ArgumentHelp("The log to write (.csv or .csv.gz).", valueName: "FILE"))
    var output: String

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp("Stop after this many seconds (default: until Ctrl-C).", valueName: "S"))
    var duration: Double?

    @Option(name: .long, help: "Where samples come from: auto (tiltd if it answers, else IIO), daemon or iio.")
    var from: From = .auto

    @OptionGroup var socketOptions: SocketOptions

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp("Sampling rate to ask for, in Hz (IIO only).", valueName: "HZ"))
    var rate: Double?

    @Option(name: .long, help: ArgumentHelp("The libiio context: local: or ip:HOST (IIO only).", valueName: "URI"))
    var uri = "local:"

    @Flag(name: .long, help: "Replace the output file when it exists.")
    var force = false

    func validate() throws {
        if let duration, !(duration > 0) { throw ValidationError("--duration must be a positive number of seconds") }
        if let rate, !(rate > 0 && rate.isFinite) { throw ValidationError("--rate must be a positive number of Hz") }
    }

    /// The recording state, shared by the capture task and the command.
    final class Shared: Sendable {
        let state = Mutex(State())
    }

    /// What the event callback shares with the command.
    struct State: ~Copyable {
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
        mutating func record(_ sample: MotionSample, into output: String) {
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
                    FileHandle.standardError.write("\rrecording \(output): \(writer.rowCount) samples, \(seconds) s")
                }
            } catch {
                failure = "\(error)"
            }
        }
    }

    func run() async throws {
        // Refuse an existing output, and fail on a missing or read-only folder, before waiting for any sample. The
        // log is written to a temporary file that replaces the output only when the recording ends.
        let file = try AtomicFileOutput(path: output, replacing: force)
        let useDaemon: Bool
        switch from {
        case .daemon: useDaemon = true
        case .iio: useDaemon = false
        case .auto:
            do {
                _ = try await TiltConnection.request(.status, socketPath: socketOptions.socket, timeout: 2) {
                    if case .status = $0 { true } else { false }
                }
                useDaemon = true
            } catch let error as TiltClientError where error.kind == .daemonNotRunning {
                useDaemon = false
            } catch {
                // A daemon is there but unusable (no permission, no answer): say so before reading IIO instead.
                FileHandle.standardError.write("not recording through tiltd: \(error); reading the sensors directly\n")
                useDaemon = false
            }
        }
        let shared = Shared()
        let stopper = Atomic<Bool>(false)
        // Ctrl-C and SIGTERM (a service manager, `timeout`) both end the recording normally: the log is finished.
        let stops = [SIGINT, SIGTERM].map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            signal(number, SIG_IGN)
            source.setEventHandler { stopper.store(true, ordering: .relaxed) }
            source.resume()
            return source
        }
        let log = file.temporaryPath
        let task = try useDaemon ? recordFromDaemon(into: shared, log: log) : recordFromIIO(into: shared, log: log)
        let state = shared
        let started = ContinuousClock.now
        while true {
            try? await Task.sleep(for: .milliseconds(50))
            if stopper.load(ordering: .relaxed) { break }
            if state.state.withLock({ $0.failure != nil }) { break }
            if let duration, ContinuousClock.now - started >= .seconds(duration) { break }
        }
        task.cancel()
        let runError: (any Error)?
        do { try await task.value; runError = nil } catch { runError = error }
        for stop in stops { stop.cancel() }
        let (rows, rejected, opened, closeFailure) = state.state.withLock { s -> (Int, Int, Bool, String?) in
            guard let writer = s.writer.take() else { return (0, s.rejected, false, nil) }
            do { try writer.close() } catch { return (writer.rowCount, s.rejected, true, "\(error)") }
            return (writer.rowCount, s.rejected, true, nil)
        }
        var failure = state.state.withLock { $0.failure } ?? closeFailure
        if !opened { failure = failure ?? state.state.withLock { $0.notConnected } ?? "no samples arrived" }
        // What was recorded before a failure (a full disk) is kept, as the flushes promise; a run that recorded
        // nothing leaves an existing file as it was.
        if opened && (failure == nil || rows > 0) {
            do { try file.commit() } catch { failure = failure ?? "\(error)" }
        } else {
            file.discard()
        }
        if opened { FileHandle.standardError.write("\nrecorded \(rows) samples to \(output) (\(rejected) rejected)\n") }
        if let failure {
            // The writer names the temporary file; the user knows the output's name.
            FileHandle.standardError.write("error: \(failure.replacingOccurrences(of: log, with: output))\n")
            throw ExitCode(1)
        }
        if let runError {
            FileHandle.standardError.write("error: \(runError)\n")
            throw ExitCode(1)
        }
    }

    /// Opens the log at `log`, inside the lock that guards it; a failure is kept as the recording's failure, which
    /// ends it.
    ///
    /// - Returns: Whether the log is open.
    private static func install(
        sensors: [SensorDescription], source: String, log: String, in shared: Shared
    ) -> Bool {
        shared.state.withLock { s -> Bool in
            do {
                s.writer = try SensorLogWriter(recordingTo: log, sensors: sensors, source: source)
                return true
            } catch {
                s.failure = "\(error)"
                return false
            }
        }
    }

    private func recordFromIIO(into shared: Shared, log: String) throws -> Task<Void, any Error> {
        let source: IIOMotionSource
        do {
            source = try IIOMotionSource(uri: uri)
        } catch {
            FileHandle.standardError.write("error: \(error)\n")
            throw ExitCode(1)
        }
        guard Self.install(sensors: source.sensors, source: "\(source.name) \(uri)", log: log, in: shared) else {
            return Task {}
        }
        let output = output
        return Task {
            try await source.run(rate: rate) { event in
                switch event {
                case .sample(let sample):
                    shared.state.withLock { $0.record(sample, into: output) }
                case .rejected:
                    shared.state.withLock { $0.rejected += 1 }
                case .sensor(let st, let reason):
                    FileHandle.standardError.write("\nsensor \(st.rawValue): \(reason)\n")
                case .busy(let busy):
                    FileHandle.standardError.write("\nsensor: \(busy?.explanation() ?? "buffer back")\n")
                }
            }
        }
    }

    /// How long a recording through tiltd waits for a first connection (a daemon started just before may not have
    /// opened its socket yet) before it stops with the cause.
    static let startGrace: Duration = .seconds(2)

    /// Records the daemon's raw sample stream (`watch` with `raw`), across reconnections.
    private func recordFromDaemon(into shared: Shared, log: String) -> Task<Void, any Error> {
        let path = SocketPath.resolveForClient(socketOptions.socket)
        let subscriber = TiltSubscriber(configuration: .init(socketPath: path, rate: 1, raw: true))
        let output = output
        let started = ContinuousClock.now
        return Task {
            defer { subscriber.close() }
            for await event in subscriber.events() {
                if Task.isCancelled { return }
                switch event {
                case .connected(let hello):
                    FileHandle.standardError.write("recording from \(hello.daemon) at \(path)\n")
                    if shared.state.withLock({ $0.writer == nil && $0.firstTime == nil }) {
                        let sensors = hello.sensors.map {
                            SensorDescription(
                                name: $0.name, kinds: $0.kinds, location: $0.location, rateHz: $0.rate, mode: $0.mode)
                        }
                        let source = "\(hello.daemon) at \(path)"
                        guard Self.install(sensors: sensors, source: source, log: log, in: shared) else { return }
                    }
                case .message(.sample(let sample)):
                    shared.state.withLock { $0.record(sample, into: output) }
                case .message(.sensor(let e)):
                    FileHandle.standardError.write("\nsensor \(e.state): \(e.reason)\n")
                case .disconnected(let reason):
                    // Never connected for a while: no daemon is coming (one just started gets `startGrace` to open
                    // its socket), and there is no recording to keep a gap in, so stop with the cause.
                    let neverConnected = shared.state.withLock { $0.writer == nil && $0.firstTime == nil }
                    if neverConnected {
                        let reason = "cannot record through tiltd: \(reason)"
                        guard ContinuousClock.now - started >= Self.startGrace else {
                            shared.state.withLock { $0.notConnected = reason }
                            continue
                        }
                        shared.state.withLock { $0.failure = $0.failure ?? reason }
                        return
                    }
                    FileHandle.standardError.write("\ndisconnected: \(reason); retrying (the log will have a gap)\n")
                case .message(.error(let message)):
                    FileHandle.standardError.write("\nerror: tiltd answered: \(message)\n")
                case .message:
                    break  // a recording keeps the raw samples only
                }
            }
        }
    }
}
