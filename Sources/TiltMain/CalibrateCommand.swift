import ArgumentParser
import FoundationEssentials
import TiltCore
import TiltSensors
import TiltTools

/// `tilt calibrate`: measures the sensors' errors and writes a calibration file that tiltd applies.
struct Calibrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure the sensors' errors and write a calibration file for tiltd.",
        discussion: """
            Each command reads raw samples from tiltd (start it with --no-calibration while calibrating) or from a \
            sensor log (--input), fits one sensor's correction, and writes it into a calibration file: by default \
            $XDG_CONFIG_HOME/tilt/calibration.d/NAME.calib, which tiltd picks for this machine and sensor. An \
            existing file is only changed with --force, and then only the section for this sensor is replaced. \
            The format is described in Calibration/README.md.
            """,
        subcommands: [Gyro.self, Accel.self, Mag.self, Match.self])
}

/// Options every `tilt calibrate` command shares: where samples come from, and where the file goes.
struct CalibrateOptions: ParsableArguments {
    @OptionGroup var socketOptions: SocketOptions

    @Option(help: ArgumentHelp("Read samples from this sensor log instead of tiltd.", valueName: "LOG"))
    var input: String?

    @Option(
        help: ArgumentHelp("The calibration file to write (default: in the user's calibration.d).", valueName: "FILE"))
    var output: String?

    @Flag(help: "Change an existing file: replace this sensor's section, keep the others.")
    var force = false

    @Flag(
        help: """
            Write a new file even when nothing identifies the device (no DMI strings, no sensor name or label): it \
            then applies to every device.
            """)
    var matchAny = false

    @OptionGroup var sensor: SensorIdentityOptions

    @OptionGroup var badRows: StrictOption

    /// Refuses a `--duration` that is not a positive number of seconds.
    static func checkDuration(_ seconds: Double) throws {
        guard seconds > 0, seconds.isFinite else {
            throw ValidationError("--duration must be a positive number of seconds")
        }
    }

    /// Opens the sample feed these options ask for and runs `body` with a session on it, reporting failures as
    /// `error: …` with exit status 1.
    func withSession(_ body: (CalibrationSession) async throws -> Void) async throws {
        try await reportingCalibrationErrors {
            let feed =
                if let input {
                    try CalibrationSampleFeed(logPath: input, badRows: badRows.policy) {
                        StandardStream.error.write($0 + "\n")
                    }
                } else {
                    try await CalibrationSampleFeed(socketPath: socketOptions.socket)
                }
            try await body(CalibrationSession(feed: feed))
        }
    }

    /// Writes `update` into the file these options name (see ``CalibrationWriter``) and prints `line` and where it
    /// went.
    func write(
        _ session: CalibrationSession, part: CalibrationFileUpdate.Part, summary: String, line: String,
        update: (inout Calibration) -> Void
    ) throws {
        let writer = CalibrationWriter(
            output: output, force: force, matchAny: matchAny, name: sensor.name, label: sensor.label,
            dmiRoot: sensor.dmiRoot)
        let path = try writer.write(device: session.feed.device, part: part, summary: summary, update: update)
        print(line)
        print(CalibrationWriter.applyHint(path))
    }
}

/// Which sensor on which machine a calibration is for: the keys of its `[match]` section.
struct SensorIdentityOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The IIO sensor's name, e.g. bmi160 (when calibrating, default: what tiltd or the log says).",
            valueName: "NAME"))
    var name: String?

    @Option(help: ArgumentHelp("The IIO sensor's label, e.g. accel-display.", valueName: "LABEL"))
    var label: String?

    @Option(help: ArgumentHelp("Where the machine's DMI strings are read for [match].", valueName: "DIR"))
    var dmiRoot = CalibrationLoader.defaultDMIRoot

    /// The machine's DMI strings with `--name` (else `defaultName`) and `--label`.
    func identity(defaultName: String?) -> CalibrationIdentity {
        CalibrationLoader.identity(dmiRoot: dmiRoot, name: name ?? defaultName, label: label)
    }
}

/// Runs `body`, turning calibration failures into a message on standard error and exit status 1.
func reportingCalibrationErrors(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch let error as CalibrateError {
        StandardStream.error.write("error: \(error.message)\n")
        throw ExitCode(1)
    } catch let error as CalibrationFitError {
        StandardStream.error.write("error: \(error.message)\n")
        throw ExitCode(1)
    } catch let error as CancellationError {
        throw error
    } catch let error as ExitCode {
        throw error
    } catch {
        StandardStream.error.write("error: \(error)\n")
        throw ExitCode(1)
    }
}

private func f3(_ v: Vector3) -> String {
    v.array.map { String(printf: "%.5f", $0) }.joined(separator: ", ")
}

extension Calibrate {
    /// `tilt calibrate match`: which file tiltd would apply to a sensor on this machine, and why.
    struct Match: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show which calibration file tiltd would pick for a sensor on this machine, and why.",
            discussion: """
                Searches the same folders as tiltd (or --calibration-dir) with the machine's DMI strings and the \
                sensor's name and label (see `tilt sensors`), and prints the explanation `tilt status` would show, \
                then the file. Exits with status 1 when no file matches.
                """)

        @OptionGroup var sensor: SensorIdentityOptions

        @Option(
            name: .customLong("calibration-dir"),
            help: ArgumentHelp("Search this folder instead of tiltd's defaults (repeatable).", valueName: "DIR"))
        var calibrationDirs: [String] = []

        func run() throws {
            let identity = sensor.identity(defaultName: nil)
            let directories = calibrationDirs.isEmpty ? CalibrationLoader.defaultDirectories() : calibrationDirs
            let resolution = CalibrationLoader.search(directories: directories, identity: identity)
            let keys = [
                ("sys_vendor", identity.sysVendor), ("product_name", identity.productName), ("name", identity.name),
                ("label", identity.label),
            ].map { "\($0.0)=\($0.1.map { "'\($0)'" } ?? "none")" }
            print("device       \(keys.joined(separator: ", "))")
            print("calibration  \(resolution.explanation)")
            guard let path = resolution.path else { throw ExitCode(1) }
            print("")
            print((try? String(contentsOfFile: path, encoding: .utf8)) ?? "", terminator: "")
        }
    }

    /// `tilt calibrate gyro`: the gyroscope bias from a still stretch.
    struct Gyro: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Measure the gyroscope bias while the device lies still.",
            discussion: """
                Put the device on a table and leave it alone. Refuses when the gyroscope or accelerometer shows \
                movement. With --input, the first --duration seconds of the log are used.
                """)

        @OptionGroup var options: CalibrateOptions

        @Option(parsing: .unconditional, help: ArgumentHelp("Seconds to hold still.", valueName: "S"))
        var duration: Double = 10

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("Movement limit: gyro standard deviation, rad/s.", valueName: "RAD/S"))
        var maxGyroStd = 0.01

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("Movement limit: accel magnitude standard deviation, m/s².", valueName: "M/S2"))
        var maxAccelStd = 0.1

        func validate() throws {
            try CalibrateOptions.checkDuration(duration)
            guard maxGyroStd > 0, maxAccelStd > 0 else { throw ValidationError("the movement limits must be positive") }
        }

        func run() async throws {
            try await options.withSession { session in
                let limits = CalibrationFit.StillnessLimits(gyroStd: maxGyroStd, accelMagnitudeStd: maxAccelStd)
                let result = try await session.gyro(duration: duration, limits: limits)
                try options.write(
                    session, part: .gyro, summary: result.summary,
                    line: "gyro bias \(f3(result.bias)) rad/s (\(result.summary))"
                ) { $0.gyroBias = result.bias }
            }
        }
    }

    /// `tilt calibrate accel`: six still positions, one per axis direction, fit by least squares.
    struct Accel: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Measure accelerometer offset, scale and misalignment in six still positions.",
            discussion: """
                Prompts for each position (screen up, screen down, each edge up) and collects about two seconds \
                in each; a position that moved, is tilted, or repeats one already done is refused and asked again. \
                With --input (or --auto) the positions are found in the stream: every still stretch of --seconds \
                with a new axis up counts.
                """)

        @OptionGroup var options: CalibrateOptions

        @Option(parsing: .unconditional, help: ArgumentHelp("Seconds to collect per position.", valueName: "S"))
        var seconds: Double = 2

        @Flag(help: "Do not wait for Enter: take each new still position as it comes (from tiltd).")
        var auto = false

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("Give up after this many seconds in --auto mode.", valueName: "S"))
        var timeout: Double = 180

        func validate() throws {
            guard seconds > 0.2, seconds.isFinite else { throw ValidationError("--seconds must be more than 0.2") }
            guard timeout > 0, timeout.isFinite else {
                throw ValidationError("--timeout must be a positive number of seconds")
            }
        }

        func run() async throws {
            try await options.withSession { session in
                let result = try await session.accel(seconds: seconds, automatic: auto, timeout: timeout)
                let fit = result.fit
                try options.write(
                    session, part: .accel, summary: result.summary,
                    line: "accel offset \(f3(fit.offset)) m/s², matrix \(fit.matrix) (\(result.summary))"
                ) {
                    $0.accelOffset = fit.offset
                    $0.accelMatrix = fit.matrix
                }
            }
        }
    }

    /// `tilt calibrate mag`: hard and soft iron from readings in every direction, fit as an ellipsoid.
    struct Mag: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Measure magnetometer hard and soft iron while the device turns in every direction.",
            discussion: """
                Turn the device slowly through every orientation (figure eights, then each edge up) away from \
                metal. Progress is the share of 26 directions seen; it stops when all are seen or at --duration. \
                With --input the whole log is used.
                """)

        @OptionGroup var options: CalibrateOptions

        @Option(parsing: .unconditional, help: ArgumentHelp("Longest time to collect, seconds.", valueName: "S"))
        var duration: Double = 90

        @Option(
            parsing: .unconditional, help: ArgumentHelp("Least share of the 26 directions needed, 0…1.", valueName: "F")
        )
        var minCoverage = 0.7

        func validate() throws {
            try CalibrateOptions.checkDuration(duration)
            guard minCoverage > 0, minCoverage <= 1 else { throw ValidationError("--min-coverage must be in (0, 1]") }
        }

        func run() async throws {
            try await options.withSession { session in
                let result = try await session.mag(duration: duration, minCoverage: minCoverage)
                try options.write(
                    session, part: .mag, summary: result.summary,
                    line: "magn hard iron \(f3(result.hardIron)) µT, soft iron \(result.softIron) (\(result.summary))"
                ) {
                    $0.magHardIron = result.hardIron
                    $0.magSoftIron = result.softIron
                }
            }
        }
    }
}
