import ArgumentParser
import Foundation
import Logging
import TiltDaemon
import TiltFusion
import TiltSensors

@main
struct Tiltd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tiltd",
        abstract: "The tilt sensor daemon: fuses IMU samples into attitude and serves it on a Unix socket.",
        discussion: """
            Reads accelerometer, gyroscope and magnetometer samples from Linux IIO (or replays a recorded log), \
            fuses them into attitude and a smoothed, clamped tilt signal, and publishes JSON lines to every \
            client of its socket. The sensor runs only while a client watches.

            Socket: --socket, else $TILTD_SOCKET, else $XDG_RUNTIME_DIR/tiltd.sock.
            Try it:  tiltd --replay Tests/Fixtures/broad-01-excerpt.csv.gz --loop &  tilt watch
            """)

    @Option(name: .long, help: ArgumentHelp("Replay this sensor log (.csv or .csv.gz) instead of reading IIO.", valueName: "FILE"))
    var replay: String?

    @Option(name: .long, help: "Replay speed: 1 is real time.")
    var speed: Double = 1

    @Flag(name: .long, help: "Start the replay over at the end of the log.")
    var loop = false

    @Option(name: .long, help: ArgumentHelp("libiio context URI for live sensors: local: or ip:HOST.", valueName: "URI"))
    var uri: String = "local:"

    @Flag(name: .customLong("no-mag"), help: "Ignore the magnetometer (6D fusion).")
    var noMag = false

    @Option(name: .long, help: ArgumentHelp("Unix socket path.", valueName: "PATH"))
    var socket: String?

    @Option(name: .long, help: "Tilt soft-clamp limit, radians.")
    var limit: Double = 0.5

    @Option(
        name: .long, help: ArgumentHelp("Apply this calibration file, whatever its [match] says.", valueName: "FILE"))
    var calibration: String?

    @Flag(name: .customLong("no-calibration"), help: "Apply no calibration.")
    var noCalibration = false

    @Option(
        name: .customLong("calibration-dir"),
        help: ArgumentHelp(
            "Search this folder for calibration files instead of the defaults (repeatable; also "
                + "$TILT_CALIBRATION_PATH).",
            valueName: "DIR"))
    var calibrationDirs: [String] = []

    @Option(
        name: .customLong("dmi-root"),
        help: ArgumentHelp("Where DMI strings are read to match calibration files.", valueName: "DIR"))
    var dmiRoot = "/sys/class/dmi/id"

    @Option(
        name: .customLong("power-supply-root"),
        help: ArgumentHelp("The power_supply class folder (mains, battery).", valueName: "DIR"))
    var powerSupplyRoot: String = PowerSupplyProbe.defaultRoot

    @Option(
        name: .customLong("platform-profile"),
        help: ArgumentHelp("The ACPI platform profile file.", valueName: "FILE"))
    var platformProfile: String = PowerMonitor.defaultPlatformProfilePath

    @Option(
        name: .customLong("system-bus"),
        help: ArgumentHelp(
            "D-Bus address for power-profiles-daemon (default: $DBUS_SYSTEM_BUS_ADDRESS, else the system bus).",
            valueName: "ADDRESS"))
    var systemBus: String?

    @Option(
        name: .customLong("power-poll"),
        help: "Seconds between re-reads of the power_supply files (they have no change notification).")
    var powerPoll: Double = 15

    @Flag(name: .customLong("no-power"), help: "Probe no power state; publish mains power.")
    var noPower = false

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel: String = "info"

    func validate() throws {
        guard speed > 0, speed.isFinite else { throw ValidationError("--speed must be a positive number, e.g. 1 or 20") }
        guard limit > 0, limit.isFinite else { throw ValidationError("--limit must be a positive angle in radians, e.g. 0.5") }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("unknown --log-level '\(logLevel)'; use trace, debug, info, notice, warning, error or critical")
        }
        guard powerPoll >= 0.1, powerPoll.isFinite else {
            throw ValidationError("--power-poll must be at least 0.1 seconds, e.g. 15")
        }
        if loop, replay == nil { throw ValidationError("--loop needs --replay FILE") }
        if noCalibration, calibration != nil {
            throw ValidationError("--calibration FILE and --no-calibration exclude each other")
        }
    }

    func run() async throws {
        let level = Logger.Level(rawValue: logLevel) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "tiltd")
        let source: TiltDaemon.Source =
            if let replay {
                .replay(.init(path: replay, speed: speed, loop: loop, useMagnetometer: !noMag))
            } else {
                .iio(uri: uri)
            }
        var pipeline = MotionPipeline.Configuration()
        pipeline.filter.useMagnetometer = !noMag
        pipeline.shaping.limit = limit
        let choice: CalibrationLoader.Choice =
            if noCalibration {
                .disabled(reason: "disabled by --no-calibration")
            } else if let calibration {
                .file(calibration)
            } else {
                .automatic(
                    directories: calibrationDirs.isEmpty ? CalibrationLoader.defaultDirectories() : calibrationDirs)
            }
        var configuration = TiltDaemon.Configuration(
            socketPath: socket, source: source, pipeline: pipeline, calibration: choice, dmiRoot: dmiRoot)
        configuration.power =
            noPower
            ? nil
            : PowerMonitor.Configuration(
                powerSupplyRoot: powerSupplyRoot, platformProfilePath: platformProfile,
                bus: systemBus.map { .address($0) } ?? .system, pollInterval: powerPoll)
        let daemon = TiltDaemon(configuration: configuration, logger: logger)
        do {
            try await daemon.run()
        } catch let error as DaemonError {
            logger.critical("\(error.message)")
            throw ExitCode(1)
        }
    }
}
