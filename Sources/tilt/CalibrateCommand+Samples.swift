import Foundation
import Synchronization
import TiltClient
import TiltCore
import TiltSensors
import TiltWire

/// Where `tilt calibrate` gets its samples: the daemon's raw stream, or a log read at once.
///
/// From the daemon a background task collects `sample` messages; the command starts a fresh collection, waits for
/// enough seconds of sensor time, and takes what arrived.
final class CalibrationSampleFeed: Sendable {
    /// What is known about the device that produced the samples.
    struct Device: Sendable {
        /// The first sensor's name (the IIO driver, e.g. `bmi160`), if known.
        var name: String?
        /// Where the samples come from, for the file's comment.
        var origin: String
    }

    private struct Collection {
        var hello: ServerMessage.Hello?
        var samples: [MotionSample] = []
        var failure: String?
        var ended = false
    }

    let device: Device
    /// All samples of the log (`--input`); `nil` when reading from the daemon.
    let logSamples: [MotionSample]?
    private let subscriber: TiltSubscriber?
    private final class Box: Sendable {
        let state = Mutex(Collection())
    }

    private let collection = Box()
    private let task = Mutex<Task<Void, Never>?>(nil)

    /// Reads the whole log at `path`.
    init(logPath path: String) throws {
        let log: SensorLog
        do {
            log = try SensorLog.read(path: path)
        } catch {
            throw CalibrateError("cannot read --input \(path): \(error)")
        }
        let name = log.metadata["device"].flatMap { $0.split(separator: "+").first.map(String.init) }
        device = Device(name: name, origin: "log \(path)")
        logSamples = log.samples
        subscriber = nil
    }

    /// Connects to the daemon, checks that it streams uncalibrated samples, and starts collecting raw samples.
    init(socketPath: String?) async throws {
        let answer = try await TiltConnection.request(.status, socketPath: socketPath) {
            if case .status = $0 { return true } else { return false }
        }
        guard case .status(let status) = answer else { throw CalibrateError("tiltd did not answer status") }
        if status.calibrated {
            throw CalibrateError(
                """
                tiltd applies a calibration to the samples it streams (\(status.calibration)); a new one must be made \
                from uncalibrated samples. Restart it with --no-calibration while you calibrate.
                """)
        }
        let subscriber = TiltSubscriber(
            configuration: .init(socketPath: socketPath, rate: 1, raw: true, reconnect: false, bufferSize: 8192))
        self.subscriber = subscriber
        logSamples = nil
        let events = subscriber.events()
        let collection = self.collection
        let consumer = Task {
            for await event in events {
                switch event {
                case .connected(let hello):
                    collection.state.withLock { $0.hello = hello }
                case .sample(let sample):
                    collection.state.withLock { $0.samples.append(sample) }
                case .sensor(let e) where e.state == .finished || e.state == .lost:
                    collection.state.withLock { $0.failure = "the sensor is \(e.state): \(e.reason)" }
                case .disconnected(let reason):
                    collection.state.withLock {
                        $0.failure = $0.failure ?? "tiltd went away: \(reason)"
                        $0.ended = true
                    }
                    return
                default: continue
                }
            }
            collection.state.withLock { $0.ended = true }
        }
        task.withLock { $0 = consumer }
        let deadline = ContinuousClock.now + .seconds(5)
        var hello: ServerMessage.Hello?
        while hello == nil {
            let (greeting, failure, ended) = collection.state.withLock { ($0.hello, $0.failure, $0.ended) }
            if let greeting {
                hello = greeting
            } else if ended || ContinuousClock.now > deadline {
                consumer.cancel()
                throw CalibrateError("cannot watch tiltd: \(failure ?? "no greeting within 5 s")")
            } else {
                try await Task.sleep(for: .milliseconds(20))
            }
        }
        device = Device(
            name: hello?.sensors.first?.name,
            origin: "\(hello?.daemon ?? "tiltd") at \(subscriber.socketPath) (\(status.source))")
    }

    deinit {
        task.withLock { $0?.cancel() }
        subscriber?.close()
    }

    /// Forgets what was collected so far; the next ``collect(seconds:progress:)`` starts now.
    func restart() {
        collection.state.withLock {
            $0.samples.removeAll(keepingCapacity: true)
            if !$0.ended { $0.failure = nil }
        }
    }

    /// The samples collected so far (from the daemon).
    func snapshot() throws -> [MotionSample] {
        try collection.state.withLock { c in
            if let failure = c.failure, c.samples.isEmpty || c.ended { throw CalibrateError(failure) }
            return c.samples
        }
    }

    /// Waits until the samples since the last ``restart()`` span `seconds` of sensor time, calling `progress`
    /// about five times a second with the seconds covered so far.
    ///
    /// - Throws: ``CalibrateError`` when the daemon sends nothing for `stallTimeout` seconds or goes away.
    func collect(seconds: Double, stallTimeout: Double = 10, progress: (Double, Int) -> Void) async throws
        -> [MotionSample]
    {
        var lastCount = 0
        var lastChange = ContinuousClock.now
        while true {
            let samples = try snapshot()
            let span = samples.count > 1 ? samples[samples.count - 1].time - samples[0].time : 0
            progress(span, samples.count)
            if span >= seconds { return samples }
            if samples.count != lastCount {
                lastCount = samples.count
                lastChange = .now
            } else if ContinuousClock.now - lastChange > .seconds(stallTimeout) {
                throw CalibrateError(
                    "tiltd sent no samples for \(Int(stallTimeout)) s; is the sensor running? (tilt status)")
            }
            try await Task.sleep(for: .milliseconds(200))
        }
    }
}

/// Reads one line from standard input without blocking the cooperative thread pool; `nil` at end of input.
func readLineAsync() async -> String? {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread { continuation.resume(returning: readLine()) }
    }
}

/// A `tilt calibrate` failure: the message says what went wrong and what to do.
struct CalibrateError: Error, CustomStringConvertible {
    var message: String
    init(_ message: String) {
        self.message = message
    }
    var description: String { message }
}

/// A progress line on standard error: rewritten in place on a terminal, else one plain line a second.
struct ProgressLine {
    private let terminal = isatty(STDERR_FILENO) == 1
    private var last = ContinuousClock.now - .seconds(1)
    private var shown = false

    /// Shows `text` unless the last one was shown very recently (`force` shows it anyway).
    mutating func show(_ text: String, force: Bool = false) {
        let interval: Duration = terminal ? .milliseconds(200) : .seconds(1)
        guard force || ContinuousClock.now - last >= interval else { return }
        last = .now
        if terminal {
            shown = true
            FileHandle.standardError.write("\r\u{1B}[K" + text)
        } else {
            FileHandle.standardError.write(text + "\n")
        }
    }

    /// Ends the line.
    mutating func finish() {
        if shown { FileHandle.standardError.write("\n") }
        shown = false
    }
}
