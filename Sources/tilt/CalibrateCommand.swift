import ArgumentParser
import Foundation
import TiltClient
import TiltCore
import TiltSensors

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

    /// Opens the sample feed these options ask for and runs `body` with it, reporting failures as `error: …` with
    /// exit status 1.
    func withFeed(_ body: (CalibrationSampleFeed) async throws -> Void) async throws {
        try await reportingCalibrationErrors {
            let feed =
                if let input {
                    try CalibrationSampleFeed(logPath: input, badRows: badRows)
                } else {
                    try await CalibrationSampleFeed(socketPath: socketOptions.socket)
                }
            try await body(feed)
        }
    }

    /// Writes `update` applied to the output file's calibration (or a new one matched to this machine).
    ///
    /// A new file must name the device it is for: the machine's DMI strings or the sensor's name or label. One with
    /// no `[match]` keys would apply to every device, so it is written only with `--match-any`.
    ///
    /// - Returns: The path written.
    func write(
        device: CalibrationSampleFeed.Device, part: CalibrationFileUpdate.Part, summary: String,
        update: (inout Calibration) -> Void
    ) throws -> String {
        let identity = sensor.identity(defaultName: device.name)
        let path = output ?? CalibrationFileUpdate.defaultPath(for: identity)
        let stamp = ISO8601DateFormatter().string(from: Date())
        let isNew = !FileManager.default.fileExists(atPath: path)
        do {
            try CalibrationFileUpdate.write(
                to: path, identity: identity, replaceExisting: force, part: part, matchEveryDevice: matchAny,
                comment: ["\(part.command) at \(stamp) from \(device.origin)", summary], update: update)
        } catch .exists {
            throw CalibrateError(
                "\(path) already exists; pass --force to replace its section for this sensor (the others are "
                    + "kept), or --output FILE to write elsewhere")
        } catch .matchesEveryDevice {
            throw CalibrateError(
                "nothing identifies this device: no DMI strings in \(sensor.dmiRoot) and no sensor name or label "
                    + "(the samples do not say), so the file would apply to every device; pass --name NAME (see "
                    + "`tilt sensors`) or --label LABEL to match this sensor, or --match-any to write it for every "
                    + "device")
        } catch .unreadable(let error) {
            throw CalibrateError("cannot update \(error); fix or remove the file")
        } catch .unwritable(let error) {
            throw CalibrateError("\(error)")
        }
        if isNew, identity.sysVendor == nil, identity.productName == nil, identity.specificity > 0 {
            let keys = identity.keys.map { "\($0.key) '\($0.value)'" }.joined(separator: " and ")
            FileHandle.standardError.write(
                "note: no DMI strings in \(sensor.dmiRoot): the file matches any machine whose sensor has \(keys)\n")
        }
        return path
    }

    /// What to tell after writing `path`: `SIGHUP` re-resolves the calibration, so a reload applies it.
    static func applyHint(_ path: String) -> String {
        "wrote \(path); `systemctl reload tiltd` (or `kill -HUP` tiltd's pid) applies it, unless tiltd runs with "
            + "--no-calibration: then restart it without"
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
        FileHandle.standardError.write("error: \(error.message)\n")
        throw ExitCode(1)
    } catch let error as CalibrationFitError {
        FileHandle.standardError.write("error: \(error.message)\n")
        throw ExitCode(1)
    } catch let error as CancellationError {
        throw error
    } catch let error as ExitCode {
        throw error
    } catch {
        FileHandle.standardError.write("error: \(error)\n")
        throw ExitCode(1)
    }
}

private func f3(_ v: Vector3) -> String {
    v.array.map { String(format: "%.5f", $0) }.joined(separator: ", ")
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
            try await options.withFeed { feed in
                let samples: [MotionSample]
                switch feed.source {
                case .log(let all):
                    guard let start = all.first?.time else { throw CalibrateError("the log holds no samples") }
                    samples = all.filter { $0.time - start <= duration }
                    let span = (samples.last?.time ?? start) - start
                    guard span >= duration * 0.9 else {
                        throw CalibrateError(
                            "the log holds only \(String(format: "%.1f", span)) s; need \(duration) s "
                                + "(or pass a smaller --duration)")
                    }
                case .daemon(let stream):
                    FileHandle.standardError.write(
                        "hold the device still (on a table) for \(formatSeconds(duration)) s…\n")
                    var line = ProgressLine()
                    stream.restart()
                    samples = try await stream.collect(seconds: duration) { span, count in
                        line.show("gyro: \(formatSeconds(max(duration - span, 0))) s left, \(count) samples")
                    }
                    line.finish()
                }
                let limits = CalibrationFit.StillnessLimits(gyroStd: maxGyroStd, accelMagnitudeStd: maxAccelStd)
                let (bias, stats) = try CalibrationFit.gyroBias(samples, limits: limits)
                let summary = String(
                    format: "%d samples; gyro std %.4f rad/s, accel magnitude std %.4f m/s²", stats.count,
                    stats.gyroStd,
                    stats.accelMagnitudeStd)
                let path = try options.write(device: feed.device, part: .gyro, summary: summary) {
                    $0.gyroBias = bias
                }
                print("gyro bias \(f3(bias)) rad/s (\(summary))")
                print(CalibrateOptions.applyHint(path))
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
            try await options.withFeed { feed in
                var finder = PositionFinder(seconds: seconds)
                switch feed.source {
                case .log(let all):
                    for sample in all { _ = finder.add(sample) }
                case .daemon(let stream) where auto:
                    try await collectAutomatically(stream, &finder)
                case .daemon(let stream):
                    try await collectInteractively(stream, &finder)
                }
                let fit = try finder.fit()
                let summary = String(
                    format: "six positions of %.1f s; largest residual %.4f m/s²", seconds, fit.largestResidual)
                let path = try options.write(device: feed.device, part: .accel, summary: summary) {
                    $0.accelOffset = fit.offset
                    $0.accelMatrix = fit.matrix
                }
                print("accel offset \(f3(fit.offset)) m/s², matrix \(fit.matrix) (\(summary))")
                print(CalibrateOptions.applyHint(path))
            }
        }

        private func collectInteractively(_ feed: RawSampleFeed, _ finder: inout PositionFinder) async throws {
            while let face = finder.missing.first {
                let done = finder.positions.count
                FileHandle.standardError.write("position \(done + 1)/6: \(face.instruction), then press Enter\n")
                guard await readLineAsync() != nil else {
                    throw CalibrateError(
                        "standard input ended before all six positions were done (use --auto without a terminal)")
                }
                var line = ProgressLine()
                feed.restart()
                let samples = try await feed.collect(seconds: seconds) { span, _ in
                    line.show(
                        "collecting: \(formatSeconds(max(seconds - span, 0))) s left, \(done) of 6 positions done")
                }
                line.finish()
                switch finder.accept(samples) {
                case .accepted(let got):
                    FileHandle.standardError.write("got \(got)\(got == face ? "" : " (not the one asked, but new)")\n")
                case .refused(let why):
                    FileHandle.standardError.write("refused: \(why); try again\n")
                }
            }
        }

        private func collectAutomatically(_ feed: RawSampleFeed, _ finder: inout PositionFinder) async throws {
            let started = ContinuousClock.now
            var line = ProgressLine()
            var taken = 0
            feed.restart()
            while !finder.isComplete {
                guard ContinuousClock.now - started < .seconds(timeout) else {
                    line.finish()
                    throw CalibrateError(
                        "gave up after \(Int(timeout)) s with \(finder.positions.count) of 6 positions")
                }
                let samples = try feed.snapshot()
                for sample in samples.dropFirst(taken) {
                    if let face = finder.add(sample) {
                        line.finish()
                        FileHandle.standardError.write("got \(face)\n")
                    }
                }
                taken = samples.count
                line.show(
                    "\(finder.positions.count) of 6 positions done; next: \(finder.missing.first?.instruction ?? "-"), "
                        + "hold still")
                try await Task.sleep(for: .milliseconds(200))
            }
            line.finish()
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
            try await options.withFeed { feed in
                let points: [Vector3]
                switch feed.source {
                case .log(let all):
                    points = all.compactMap(\.mag)
                case .daemon(let stream):
                    FileHandle.standardError.write("turn the device slowly in every direction…\n")
                    points = try await collect(stream)
                }
                guard !points.isEmpty else {
                    throw CalibrateError("no magnetometer readings (the sensor has none, or tiltd runs with --no-mag)")
                }
                let fit = try CalibrationFit.ellipsoid(points)
                let (covered, enough) = FieldCoverage.check(points, centre: fit.hardIron, minimumShare: minCoverage)
                guard enough else {
                    throw CalibrateError(
                        "the readings cover only \(covered) of 26 directions; turn the device in every direction "
                            + "and run again")
                }
                let summary = String(
                    format: "%d readings covering %d of 26 directions; field %.1f µT", points.count, covered,
                    fit.fieldStrength)
                let path = try options.write(device: feed.device, part: .mag, summary: summary) {
                    $0.magHardIron = fit.hardIron
                    $0.magSoftIron = fit.softIron
                }
                print("magn hard iron \(f3(fit.hardIron)) µT, soft iron \(fit.softIron) (\(summary))")
                print(CalibrateOptions.applyHint(path))
            }
        }

        private func collect(_ feed: RawSampleFeed) async throws -> [Vector3] {
            feed.restart()
            let started = ContinuousClock.now
            var line = ProgressLine()
            var covered = 0
            defer { line.finish() }
            while true {
                let points = try feed.snapshot().compactMap(\.mag)
                // The bounding-box centre moves as readings arrive; show the best count so far.
                covered = max(covered, FieldCoverage.directionsSeen(points))
                let elapsed = (ContinuousClock.now - started) / .seconds(1)
                line.show("magn: \(covered) of 26 directions, \(formatSeconds(max(duration - elapsed, 0))) s left")
                if covered == 26 || elapsed >= duration { return points }
                try await Task.sleep(for: .milliseconds(250))
            }
        }
    }
}

/// Seconds with one decimal.
func formatSeconds(_ s: Double) -> String {
    String(format: "%.1f", s)
}
