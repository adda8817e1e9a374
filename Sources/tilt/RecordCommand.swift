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
            so Ctrl-C or a full disk loses at most that much; progress goes to standard error.
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
        let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        signal(SIGINT, SIG_IGN)
        interrupt.setEventHandler { stopper.store(true, ordering: .relaxed) }
        interrupt.resume()
        let task = useDaemon ? try recordFromDaemon(into: shared) : try recordFromIIO(into: shared)
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
        interrupt.cancel()
        let (rows, rejected, failure) = state.state.withLock { s -> (Int, Int, String?) in
            var failure = s.failure
            guard let writer = s.writer.take() else { return (0, s.rejected, failure ?? "no samples arrived") }
            do { try writer.close() } catch { failure = failure ?? "\(error)" }
            return (writer.rowCount, s.rejected, failure)
        }
        FileHandle.standardError.write("\nrecorded \(rows) samples to \(output) (\(rejected) rejected)\n")
        if let failure {
            FileHandle.standardError.write("error: \(failure)\n")
            throw ExitCode(1)
        }
        if let runError {
            FileHandle.standardError.write("error: \(runError)\n")
            throw ExitCode(1)
        }
    }

    private func makeWriter(sensors: [SensorDescription], source: String) throws(ExitCode) -> SensorLogWriter {
        do {
            return try SensorLogWriter(recordingTo: output, sensors: sensors, source: source)
        } catch {
            FileHandle.standardError.write("error: \(error)\n")
            throw ExitCode(1)
        }
    }

    /// Opens the log, inside the lock that guards it.
    private func install(sensors: [SensorDescription], source: String, in shared: Shared) throws(ExitCode) {
        let failed = shared.state.withLock { s -> Bool in
            do {
                s.writer = try makeWriter(sensors: sensors, source: source)
                return false
            } catch {
                return true
            }
        }
        if failed { throw ExitCode(1) }
    }

    private func recordFromIIO(into shared: Shared) throws -> Task<Void, any Error> {
        let source: IIOMotionSource
        do {
            source = try IIOMotionSource(uri: uri)
        } catch {
            FileHandle.standardError.write("error: \(error)\n")
            throw ExitCode(1)
        }
        try install(sensors: source.sensors, source: "\(source.name) \(uri)", in: shared)
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
                }
            }
        }
    }

    /// Records the daemon's raw sample stream (`watch` with `raw`), across reconnections.
    private func recordFromDaemon(into shared: Shared) throws -> Task<Void, any Error> {
        let path = SocketPath.resolveForClient(socketOptions.socket)
        let subscriber = TiltSubscriber(configuration: .init(socketPath: path, rate: 1, raw: true))
        let output = output
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
                        try install(sensors: sensors, source: "\(hello.daemon) at \(path)", in: shared)
                    }
                case .sample(let sample):
                    shared.state.withLock { $0.record(sample, into: output) }
                case .sensor(let e):
                    FileHandle.standardError.write("\nsensor \(e.state): \(e.reason)\n")
                case .disconnected(let reason):
                    FileHandle.standardError.write("\ndisconnected: \(reason); retrying (the log will have a gap)\n")
                case .error(let message):
                    FileHandle.standardError.write("\nerror: tiltd answered: \(message)\n")
                case .frame, .power, .status, .tare:
                    break
                }
            }
        }
    }
}
