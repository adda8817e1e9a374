import FoundationEssentials
import TiltClient
import TiltCore
import TiltSensors
import TiltWire

/// Where `tilt calibrate` gets its samples: a log read at once, or the daemon's raw stream (``RawSampleFeed``).
package struct CalibrationSampleFeed: Sendable {
    /// What is known about the device that produced the samples.
    package struct Device: Sendable {
        /// The first sensor's name (the IIO driver, e.g. `bmi160`), if known.
        package var name: String?
        /// Where the samples come from, for the file's comment.
        package var origin: String

        /// A device named `name` whose samples come from `origin`.
        package init(name: String?, origin: String) {
            self.name = name
            self.origin = origin
        }
    }

    /// Where the samples are.
    package enum Source: Sendable {
        /// All samples of the log (`--input`).
        case log([MotionSample])
        /// A live stream (the daemon's raw samples), collected as the command asks.
        case daemon(any CalibrationSampleStream)
    }

    /// The device the samples come from.
    package let device: Device
    /// The samples.
    package let source: Source

    /// A feed of `source`'s samples from `device` (for tests: a scripted stream).
    package init(device: Device, source: Source) {
        self.device = device
        self.source = source
    }

    /// Reads the whole log at `path` under the bad-row policy `badRows`; `report` gets the lines about skipped
    /// rows (see ``SensorLog/read(path:badRows:report:)``).
    ///
    /// - Throws: ``CalibrateError`` naming the file and the problem.
    package init(logPath path: String, badRows: BadRowPolicy, report: (String) -> Void) throws {
        let log: SensorLog
        do {
            log = try SensorLog.read(path: path, badRows: badRows, report: report)
        } catch {
            throw CalibrateError(.input, "cannot read --input \(path): \(error)")
        }
        device = Device(name: log.recordedDeviceName, origin: "log \(path)")
        source = .log(log.samples)
    }

    /// Checks that the daemon streams uncalibrated samples, then starts collecting them.
    package init(socketPath: String?) async throws {
        let answer = try await TiltConnection.request(.status, socketPath: socketPath) {
            if case .status = $0 { return true } else { return false }
        }
        guard case .status(let status) = answer else { throw CalibrateError(.daemon, "tiltd did not answer status") }
        if status.calibrated {
            throw CalibrateError(
                .daemon,
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

/// A live stream of raw samples that a calibration collects from: ``RawSampleFeed`` from tiltd, or a scripted one
/// in tests.
package protocol CalibrationSampleStream: Sendable {
    /// Forgets what was collected so far.
    func restart()
    /// The samples collected since the last ``restart()``.
    func snapshot() throws -> [MotionSample]
    /// Waits until the samples since the last ``restart()`` span `seconds` of sensor time, calling `progress` with
    /// the seconds covered so far and the number of samples.
    func collectSpan(seconds: Double, progress: (Double, Int) -> Void) async throws -> [MotionSample]
}

extension RawSampleFeed: CalibrationSampleStream {
    /// ``RawSampleFeed/collect(seconds:stallTimeout:progress:)`` with the default stall timeout.
    package func collectSpan(seconds: Double, progress: (Double, Int) -> Void) async throws -> [MotionSample] {
        try await collect(seconds: seconds, progress: progress)
    }
}

/// A `tilt calibrate` failure: the message says what went wrong and what to do.
package typealias CalibrateError = TiltError<CalibrateErrorKind>

/// What went wrong.
///
/// - `input`: the input log cannot be read, holds no samples, or too few seconds of them
/// - `daemon`: tiltd did not answer, or applies a calibration already (raw samples are needed)
/// - `incomplete`: the person's input ended, or the time ran out, before the collection was done
/// - `coverage`: the readings do not cover what the fit needs (no magnetometer, too few directions)
/// - `output`: the calibration file cannot be written: it exists (without `--force`), is damaged, unwritable, or the
///   device has no identity to file it under
package enum CalibrateErrorKind: Sendable, Hashable {
    case input, daemon, incomplete, coverage, output
}
