import ArgumentParser
import Foundation
import Logging
import TiltDaemon
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
            Config: --config FILE holds the same settings as `key = value` lines; flags override it. SIGHUP \
            reloads it (limits, groups, log level, calibration) without dropping clients. --check validates \
            it and exits. See dist/README.md.
            Try it:  tiltd --replay Tests/Fixtures/broad-01-excerpt.csv.gz --loop &  tilt watch
            """)

    @Option(
        name: .long, help: ArgumentHelp("Read settings from this config file (flags override it).", valueName: "FILE"))
    var config: String?

    @Flag(name: .long, help: "Validate the config, calibration and presets folder, print a report and exit (0: OK).")
    var check = false

    @Option(
        name: .long, help: ArgumentHelp("The presets folder --check validates (default: Presets/).", valueName: "DIR"))
    var presets: String?

    @Option(
        name: .long,
        help: ArgumentHelp("Replay this sensor log (.csv or .csv.gz) instead of reading IIO.", valueName: "FILE"))
    var replay: String?

    @Option(name: .long, help: ArgumentHelp("Replay speed: 1 is real time. [default: 1]", valueName: "X"))
    var speed: Double?

    @Flag(inversion: .prefixedNo, help: "Start the replay over at the end of the log. [default: no]")
    var loop: Bool?

    @Option(
        name: .long, help: ArgumentHelp("libiio context URI for live sensors: local: or ip:HOST.", valueName: "URI"))
    var uri: String?

    @Flag(inversion: .prefixedNo, help: "Use the magnetometer (--no-mag: 6D fusion). [default: yes]")
    var mag: Bool?

    @Option(name: .long, help: ArgumentHelp("Unix socket path.", valueName: "PATH"))
    var socket: String?

    @Option(
        name: .customLong("socket-group"),
        help: ArgumentHelp("Give the socket file to this group.", valueName: "GROUP"))
    var socketGroup: String?

    @Option(
        name: .customLong("admin-group"),
        help: ArgumentHelp("Members of this group may tare (besides the daemon's user and root).", valueName: "GROUP"))
    var adminGroup: String?

    @Option(
        name: .customLong("max-clients"), help: ArgumentHelp("Clients served at once. [default: 4096]", valueName: "N"))
    var maxClients: Int?

    @Option(
        name: .customLong("max-line-length"),
        help: ArgumentHelp("Longest command line accepted, bytes. [default: 65536]", valueName: "BYTES"))
    var maxLineLength: Int?

    @Option(
        name: .customLong("commands-per-second"),
        help: ArgumentHelp(
            "Commands per second per client (burst twice that); 0: no limit. [default: 20]", valueName: "N"))
    var commandsPerSecond: Double?

    @Option(name: .long, help: ArgumentHelp("Tilt soft-clamp limit, radians. [default: 0.5]", valueName: "RADIANS"))
    var limit: Double?

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
    var dmiRoot: String?

    @Option(
        name: .customLong("power-supply-root"),
        help: ArgumentHelp("The power_supply class folder (mains, battery).", valueName: "DIR"))
    var powerSupplyRoot: String?

    @Option(
        name: .customLong("platform-profile"),
        help: ArgumentHelp("The ACPI platform profile file.", valueName: "FILE"))
    var platformProfile: String?

    @Option(
        name: .customLong("system-bus"),
        help: ArgumentHelp(
            "D-Bus address for power-profiles-daemon (default: $DBUS_SYSTEM_BUS_ADDRESS, else the system bus).",
            valueName: "ADDRESS"))
    var systemBus: String?

    @Option(
        name: .customLong("power-poll"),
        help: ArgumentHelp(
            "Seconds between re-reads of the power_supply files (they have no change notification). [default: 15]",
            valueName: "SECONDS"))
    var powerPoll: Double?

    @Flag(inversion: .prefixedNo, help: "Probe the power state (--no-power: publish mains power). [default: yes]")
    var power: Bool?

    @Option(
        name: .customLong("log-level"),
        help: ArgumentHelp(
            "trace, debug, info, notice, warning, error or critical. [default: info]", valueName: "LEVEL"))
    var logLevel: String?

    @Option(
        name: .customLong("log-format"),
        help: ArgumentHelp(
            "journal (<N>message key=value), plain, or auto: journal when $JOURNAL_STREAM is stderr. [default: auto]",
            valueName: "FORMAT"))
    var logFormat: String?

    func validate() throws {
        if let speed, !(speed > 0 && speed.isFinite) {
            throw ValidationError("--speed must be a positive number, e.g. 1 or 20")
        }
        if let limit, !(limit > 0 && limit.isFinite) {
            throw ValidationError("--limit must be a positive angle in radians, e.g. 0.5")
        }
        if let logLevel, Logger.Level(rawValue: logLevel) == nil {
            throw ValidationError(
                "unknown --log-level '\(logLevel)'; use trace, debug, info, notice, warning, error or critical")
        }
        if let logFormat, JournalLogHandler.Format(rawValue: logFormat) == nil {
            throw ValidationError("unknown --log-format '\(logFormat)'; use auto, journal or plain")
        }
        if let powerPoll, !(powerPoll >= 0.1 && powerPoll.isFinite) {
            throw ValidationError("--power-poll must be at least 0.1 seconds, e.g. 15")
        }
        if let maxClients, !(1...1_000_000).contains(maxClients) {
            throw ValidationError("--max-clients must be from 1 to 1000000")
        }
        if let maxLineLength, !ServicePolicy.lineLengthRange.contains(maxLineLength) {
            throw ValidationError(
                "--max-line-length must be from \(ServicePolicy.lineLengthRange.lowerBound) to "
                    + "\(ServicePolicy.lineLengthRange.upperBound) bytes")
        }
        if let commandsPerSecond, !(commandsPerSecond >= 0 && commandsPerSecond <= 100_000) {
            throw ValidationError("--commands-per-second must be from 0 (no limit) to 100000")
        }
        if noCalibration, calibration != nil {
            throw ValidationError("--calibration FILE and --no-calibration exclude each other")
        }
    }

    /// The options the command line gives (`nil` where a flag is absent).
    var flagOptions: DaemonOptions {
        var options = DaemonOptions()
        options.socket = socket
        options.socketGroup = socketGroup
        options.adminGroup = adminGroup
        options.maxClients = maxClients
        options.maxLineLength = maxLineLength
        options.commandsPerSecond = commandsPerSecond
        options.logLevel = logLevel.flatMap(Logger.Level.init(rawValue:))
        options.logFormat = logFormat.flatMap(JournalLogHandler.Format.init(rawValue:))
        options.replay = replay
        options.speed = speed
        options.loop = loop
        options.uri = uri
        options.noMag = mag.map { !$0 }
        options.limit = limit
        options.calibration = calibration
        options.calibrationDirs = calibrationDirs.isEmpty ? nil : calibrationDirs
        options.noCalibration = noCalibration ? true : nil
        options.dmiRoot = dmiRoot
        options.power = power
        options.powerPoll = powerPoll
        options.powerSupplyRoot = powerSupplyRoot
        options.platformProfile = platformProfile
        options.systemBus = systemBus
        return options
    }

    /// The file's options (if any) with the flags over them.
    static func options(config: String?, flags: DaemonOptions) throws(ConfigError) -> DaemonOptions {
        guard let config else { return flags }
        return try DaemonOptions.load(path: config).overlaid(by: flags)
    }

    func run() async throws {
        let flags = flagOptions
        if check {
            let findings = DaemonCheck(configPath: config, flags: flags, presetsDirectory: presets).run()
            print(DaemonCheck.report(findings))
            throw ExitCode(findings.contains { $0.verdict == .fail } ? 1 : 0)
        }
        let options: DaemonOptions
        do {
            options = try Self.options(config: config, flags: flags)
        } catch {
            FileHandle.standardError.write(Data("tiltd: \(error)\n".utf8))
            throw ExitCode(1)
        }
        let level = LogLevelControl(options.logLevel ?? .info)
        let format = options.logFormat ?? .auto
        LoggingSystem.bootstrap { label in JournalLogHandler(label: label, format: format, level: level) }
        let logger = Logger(label: "tiltd")
        let configuration: TiltDaemon.Configuration
        do {
            configuration = try options.makeConfiguration()
        } catch {
            logger.critical("\(error.message)")
            throw ExitCode(1)
        }
        if let config { logger.info("config: \(config)") }
        let configPath = config
        let daemon = TiltDaemon(configuration: configuration, logger: logger, logLevel: level) {
            try Self.options(config: configPath, flags: flags).makeConfiguration()
        }
        do {
            try await daemon.run()
        } catch let error as DaemonError {
            logger.critical("\(error.message)")
            throw ExitCode(1)
        }
    }
}
