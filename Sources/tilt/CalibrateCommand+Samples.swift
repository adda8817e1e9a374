import Foundation
import TiltClient
import TiltCore
import TiltSensors
import TiltWire

/// Where `tilt calibrate` gets its samples: a log read at once, or the daemon's raw stream (``RawSampleFeed``).
struct CalibrationSampleFeed: Sendable {
    /// What is known about the device that produced the samples.
    struct Device: Sendable {
        /// The first sensor's name (the IIO driver, e.g. `bmi160`), if known.
        var name: String?
        /// Where the samples come from, for the file's comment.
        var origin: String
    }

    /// Where the samples are.
    enum Source: Sendable {
        /// All samples of the log (`--input`).
        case log([MotionSample])
        /// The daemon's raw stream, collected as the command asks.
        case daemon(RawSampleFeed)
    }

    let device: Device
    let source: Source

    /// Reads the whole log at `path` under the bad-row policy of `--strict`.
    init(logPath path: String, badRows: StrictOption) throws {
        let log: SensorLog
        do {
            log = try badRows.read(path)
        } catch {
            throw CalibrateError("cannot read --input \(path): \(error)")
        }
        device = Device(name: log.recordedDeviceName, origin: "log \(path)")
        source = .log(log.samples)
    }

    /// Checks that the daemon streams uncalibrated samples, then starts collecting them.
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
        let feed = try await RawSampleFeed.start(socketPath: socketPath)
        source = .daemon(feed)
        device = Device(
            name: feed.hello.sensors.first?.name,
            origin: "\(feed.hello.daemon) at \(feed.socketPath) (\(status.source))")
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
