import ArgumentParser
import Foundation
import Synchronization
import TiltCore
import TiltSensors

/// `tilt record`: records the live IIO stream into a sensor log.
struct Record: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Record the live IIO sensors into a sensor log (CSV, gzip when the name ends in .gz).",
        discussion: """
            Reads the sensors directly through libiio (not through tiltd). Rows are flushed every half second, so \
            Ctrl-C or a full disk loses at most that much; progress goes to standard error.
            """)

    @Option(name: .long, help: ArgumentHelp("The log to write (.csv or .csv.gz).", valueName: "FILE"))
    var output: String

    @Option(name: .long, help: ArgumentHelp("Stop after this many seconds (default: until Ctrl-C).", valueName: "S"))
    var duration: Double?

    @Option(name: .long, help: ArgumentHelp("Sampling rate to ask for, in Hz.", valueName: "HZ"))
    var rate: Double?

    @Option(name: .long, help: ArgumentHelp("The libiio context: local: or ip:HOST.", valueName: "URI"))
    var uri = "local:"

    func validate() throws {
        if let duration, !(duration > 0) { throw ValidationError("--duration must be a positive number of seconds") }
        if let rate, !(rate > 0) { throw ValidationError("--rate must be a positive number of Hz") }
    }

    /// What the event callback shares with the command.
    struct State: ~Copyable {
        var writer: SensorLogWriter
        var failure: String?
        var firstTime: Double?
        var lastTime = 0.0
        var lastFlush = -Double.infinity
        var lastProgress = -Double.infinity
        var rejected = 0
    }

    func run() async throws {
        let source: IIOMotionSource
        do {
            source = try IIOMotionSource(uri: uri)
        } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode(1)
        }
        let hasMag = source.sensors.contains { $0.kinds.contains("magn") }
        let writer: SensorLogWriter
        do {
            writer = try SensorLogWriter(
                path: output,
                metadata: [
                    ("sampling_rate_hz", source.sensors.first?.rateHz.map { "\($0)" } ?? "unknown"),
                    ("device", source.sensors.map(\.name).joined(separator: "+")),
                    ("source", "\(source.name) \(uri)"),
                ],
                hasMagnetometer: hasMag)
        } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode(1)
        }
        let state = Mutex(State(writer: writer))
        let stopper = Atomic<Bool>(false)
        let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        signal(SIGINT, SIG_IGN)
        interrupt.setEventHandler { stopper.store(true, ordering: .relaxed) }
        interrupt.resume()
        let task = Task {
            try await source.run(rate: rate) { event in
                state.withLock { s in
                    guard s.failure == nil else { return }
                    switch event {
                    case .sample(let sample):
                        do {
                            try s.writer.append(sample)
                            if s.firstTime == nil { s.firstTime = sample.time }
                            s.lastTime = sample.time
                            let now = Date().timeIntervalSinceReferenceDate
                            if now - s.lastFlush >= 0.5 {
                                try s.writer.flush()
                                s.lastFlush = now
                            }
                            if now - s.lastProgress >= 1 {
                                s.lastProgress = now
                                let span = s.lastTime - (s.firstTime ?? s.lastTime)
                                let seconds = String(format: "%.1f", span)
                                let line = "\rrecording \(output): \(s.writer.rowCount) samples, \(seconds) s"
                                FileHandle.standardError.write(Data(line.utf8))
                            }
                        } catch {
                            s.failure = "\(error)"
                        }
                    case .rejected:
                        s.rejected += 1
                    case .sensor(let st, let reason):
                        FileHandle.standardError.write(Data("\nsensor \(st.rawValue): \(reason)\n".utf8))
                    }
                }
            }
        }
        let started = ContinuousClock.now
        while true {
            try? await Task.sleep(for: .milliseconds(50))
            if stopper.load(ordering: .relaxed) { break }
            if state.withLock({ $0.failure != nil }) { break }
            if let duration, ContinuousClock.now - started >= .seconds(duration) { break }
        }
        task.cancel()
        let runError: (any Error)?
        do { try await task.value; runError = nil } catch { runError = error }
        interrupt.cancel()
        let (rows, rejected, failure) = state.withLock { s -> (Int, Int, String?) in
            var failure = s.failure
            do { try s.writer.close() } catch { failure = failure ?? "\(error)" }
            return (s.writer.rowCount, s.rejected, failure)
        }
        FileHandle.standardError.write(Data("\nrecorded \(rows) samples to \(output) (\(rejected) rejected)\n".utf8))
        if let failure {
            FileHandle.standardError.write(Data("error: \(failure)\n".utf8))
            throw ExitCode(1)
        }
        if let runError {
            FileHandle.standardError.write(Data("error: \(runError)\n".utf8))
            throw ExitCode(1)
        }
    }
}
