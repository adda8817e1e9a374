import ArgumentParser
import FoundationEssentials
import Logging
import TiltCommandLine
import TiltCore
import TiltDaemon
import TiltWire

@main
struct Tiltd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tiltd",
        abstract: "The tilt sensor daemon: fuses IMU samples into attitude and serves it on a Unix socket.",
        discussion: """
            Reads accelerometer, gyroscope and magnetometer samples from Linux IIO (or a game controller's evdev \
            motion sensors with --evdev, a phone's or another tool's DSU server with --dsu, or replays a recorded \
            log), fuses them into attitude and a smoothed, clamped tilt signal, and publishes JSON lines to every \
            client of its socket; --dsu-server also serves the motion to emulators over DSU (cemuhook). The sensor \
            runs only while a client watches.

            Socket: --socket, else $TILTD_SOCKET, else $XDG_RUNTIME_DIR/tiltd.sock, else /run/tiltd/tiltd.sock \
            for root (the folder is created) and /tmp/tiltd-UID.sock for others.
            Config: --config FILE holds the same settings as `key = value` lines; flags override it. SIGHUP \
            reloads it (limits, groups, log level, calibration) without dropping clients. --check validates \
            it and exits. See dist/README.md (installed: /usr/share/doc/tilt/README.md).
            Try it:  tiltd --replay Tests/Fixtures/broad-01-excerpt.csv.gz --loop &  tilt watch
            """,
        version: WireProtocol.daemonVersion)

    /// Every error line starts `error: ` (lowercase, as compilers and git write it), ArgumentParser's own too.
    /// README.md, "Conventions".
    static var _errorPrefix: String { "error: " }

    /// Parses the command line (its mistakes in the house style) and runs the command; a flag whose value may be left
    /// out (`--evdev`) gets it written in first.
    static func main() async {
        await parseAndRun(DaemonOptions.givingBareValues(Array(CommandLine.arguments.dropFirst())))
    }

    @Option(
        name: .long, help: ArgumentHelp("Read settings from this config file (flags override it).", valueName: "FILE"))
    var config: String?

    @Flag(name: .long, help: "Validate the config and calibration, print a report and exit (0: OK).")
    var check = false

    /// `--presets` went with the preset check to `tiltfx check`; kept hidden to say so instead of "unknown option".
    @Option(name: .long, help: .hidden)
    var presets: String?

    @Flag(name: .long, help: .hidden)
    var printConfigTable = false

    @Flag(name: .long, help: .hidden)
    var printSampleConfig = false

    // MARK: Settings: each property's name is its flag; help and checks come from DaemonOptions.settings.

    @Option(help: .setting("socket")) var socket: String?
    @Option(help: .setting("socket_group")) var socketGroup: String?
    @Option(help: .setting("admin_group")) var adminGroup: String?
    @Option(parsing: .unconditional, help: .setting("max_clients")) var maxClients: String?
    @Option(parsing: .unconditional, help: .setting("max_line_length")) var maxLineLength: String?
    @Option(parsing: .unconditional, help: .setting("commands_per_second")) var commandsPerSecond: String?
    @Option(parsing: .unconditional, help: .setting("raw_queue_seconds")) var rawQueueSeconds: String?
    @Option(help: .setting("log_level")) var logLevel: String?
    @Option(help: .setting("log_format")) var logFormat: String?
    @Option(help: .setting("replay")) var replay: String?
    @Option(parsing: .unconditional, help: .setting("speed")) var speed: String?
    @Flag(inversion: .prefixedNo, help: .setting("loop")) var loop: Bool?
    @Option(help: .setting("uri")) var uri: String?
    @Option(help: .setting("evdev")) var evdev: String?
    @Flag(inversion: .prefixedNo, help: .setting("no_mag")) var mag: Bool?
    @Option(parsing: .unconditional, help: .setting("limit")) var limit: String?
    @Option(help: .setting("calibration")) var calibration: String?
    @Option(help: .setting("calibration_dir")) var calibrationDir: [String] = []
    @Flag(help: .setting("no_calibration")) var noCalibration = false
    @Option(help: .setting("dmi_root")) var dmiRoot: String?
    @Flag(inversion: .prefixedNo, help: .setting("power")) var power: Bool?
    @Option(parsing: .unconditional, help: .setting("power_poll")) var powerPoll: String?
    @Option(help: .setting("power_supply_root")) var powerSupplyRoot: String?
    @Option(help: .setting("platform_profile")) var platformProfile: String?
    @Option(help: .setting("system_bus")) var systemBus: String?
    @Flag(help: .setting("sensor_proxy")) var sensorProxy = false
    @Option(help: .setting("dsu")) var dsu: String?
    @Option(help: .setting("dsu_server")) var dsuServer: String?

    func validate() throws {
        if presets != nil {
            throw ValidationError("tiltd --check no longer checks presets; run `tiltfx check --presets DIR` for that")
        }
        if noCalibration, calibration != nil {
            throw ValidationError("--calibration FILE and --no-calibration exclude each other")
        }
        do {
            _ = try flagOptions()
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// The options the command line gives (`nil` where a flag is absent), checked by the settings table.
    func flagOptions() throws(ConfigError) -> DaemonOptions {
        try DaemonOptions(flags: givenFlags)
    }

    /// The file's options (if any) with the flags over them.
    static func options(config: String?, flags: DaemonOptions) throws(ConfigError) -> DaemonOptions {
        guard let config else { return flags }
        return try DaemonOptions.load(path: config).overlaid(by: flags)
    }

    func run() async throws {
        if printConfigTable || printSampleConfig {
            print(printConfigTable ? DaemonOptions.markdownTable() : DaemonOptions.sampleConfig(), terminator: "")
            return
        }
        let flags = try flagOptions()
        if check {
            let findings = DaemonCheck(configPath: config, flags: flags).run()
            print(DaemonCheck.report(findings))
            throw ExitCode(findings.contains { $0.verdict == .fail } ? 1 : 0)
        }
        let options: DaemonOptions
        do {
            options = try Self.options(config: config, flags: flags)
        } catch {
            StandardStream.error.write(Data("error: \(error)\n".utf8))
            throw ExitCode(1)
        }
        let level = LogLevelControl(options.logLevel ?? DaemonOptions.defaultLogLevel)
        let format = options.logFormat ?? DaemonOptions.defaultLogFormat
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
            // On a terminal the conventions' `error: ` line; under systemd a critical journal entry.
            if format.resolved() == .plain {
                StandardStream.error.write(Data("error: \(error.message)\n".utf8))
            } else {
                logger.critical("\(error.message)")
            }
            throw ExitCode(1)
        }
    }
}
