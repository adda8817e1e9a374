import Logging
import TiltCore
import TiltDSU
import TiltFusion
import TiltPower
import TiltSensors

/// Everything `tiltd` can be told, from its config file or its flags; `nil` means "not given here".
///
/// A config file and the command line each fill one; ``overlaid(by:)`` lets flags win over the file, and
/// ``makeConfiguration()`` applies the defaults and checks what only the whole can tell (a `loop` with no `replay`).
/// Every setting is described once, in ``settings``, which drives the parser, the overlay, the messages and the docs.
package struct DaemonOptions: Sendable, Equatable {
    package var socket: String?
    package var socketGroup: String?
    package var adminGroup: String?
    package var maxClients: Int?
    package var maxLineLength: Int?
    package var commandsPerSecond: Double?
    package var rawQueueSeconds: Double?
    package var logLevel: Logger.Level?
    package var logFormat: JournalLogHandler.Format?
    package var replay: String?
    package var speed: Double?
    package var loop: Bool?
    package var uri: String?
    package var evdev: String?
    package var noMag: Bool?
    package var limit: Double?
    package var calibration: String?
    package var calibrationDirs: [String]?
    package var noCalibration: Bool?
    package var dmiRoot: String?
    package var power: Bool?
    package var powerPoll: Double?
    package var powerSupplyRoot: String?
    package var platformProfile: String?
    package var systemBus: String?
    package var sensorProxy: Bool?
    package var dsu: DSUEndpoint?
    package var dsuServer: DSUEndpoint?

    package init() {}

    /// Reads the config file at `path`.
    ///
    /// - Throws: ``ConfigError`` naming the file, the line and the key for an unreadable file, a malformed line, an
    ///   unknown key or a bad value.
    package static func load(path: String) throws(ConfigError) -> DaemonOptions {
        try DaemonOptions(file: ConfigFile.read(path: path))
    }

    /// The options a parsed config file gives.
    ///
    /// - Throws: ``ConfigError`` for an unknown key or a bad value.
    package init(file: ConfigFile) throws(ConfigError) {
        let (options, problems) = Self.reading(file)
        if let first = problems.first { throw first }
        self = options
    }

    /// The options a parsed config file gives, skipping bad entries: the options of the good ones and a problem for
    /// each unknown key or bad value, in file order (what `tiltd --check` reports in one run).
    package static func reading(_ file: ConfigFile) -> (options: DaemonOptions, problems: [ConfigError]) {
        var options = DaemonOptions()
        var problems: [ConfigError] = []
        for entry in file.entries {
            let origin = ConfigError.Origin.file(path: file.path, line: entry.line)
            guard let setting = Self.setting(key: entry.key) else {
                problems.append(
                    ConfigError(
                        .unknownKey, origin: origin, key: entry.key,
                        reason: "unknown key; known keys: \(Self.settings.map(\.key).joined(separator: ", "))"))
                continue
            }
            do {
                try setting.apply([entry.value], to: &options, origin: origin)
            } catch {
                problems.append(error)
            }
        }
        return (options, problems)
    }

    /// The options the command line gives, by flag name (no dashes: `max-clients`, `mag`), checked like the file's.
    ///
    /// - Throws: ``ConfigError`` naming the flag for a bad value, or a flag no setting has.
    package init(flags: [String: Setting.FlagValue]) throws(ConfigError) {
        self.init()
        for (name, value) in flags.sorted(by: { $0.key < $1.key }) {
            guard let setting = Self.setting(flag: name) else {
                throw ConfigError(
                    .unknownFlag, origin: .flag("--\(name)"), key: nil, reason: "no setting has this flag")
            }
            try setting.apply(setting.texts(of: value), to: &self, origin: .flag("--\(name)"))
        }
    }

    /// These options with every value `flags` gives put over them.
    ///
    /// Settings of one choice (the calibration: `calibration`, `calibration_dir`, `no_calibration`; the source:
    /// `replay`, `uri`, `evdev`, `dsu`) go together: a flag naming any of them replaces the file's choice as a whole,
    /// so `--replay` on the command line reads the log even where the file names a `uri`.
    package func overlaid(by flags: DaemonOptions) -> DaemonOptions {
        var merged = self
        let given = Self.settings.filter { $0.isGiven(flags) }
        let replacedChoices = Set(given.compactMap(\.choice))
        for setting in Self.settings where setting.choice.map(replacedChoices.contains) == true {
            setting.copy(nil, &merged)
        }
        for setting in given {
            setting.copy(flags, &merged)
        }
        return merged
    }

    /// The daemon configuration these options describe, defaults filled in and groups looked up.
    ///
    /// - Throws: ``DaemonError`` for options that contradict each other or a group that does not exist.
    package func makeConfiguration() throws(DaemonError) -> TiltDaemon.Configuration {
        if loop == true, replay == nil {
            throw DaemonError(
                .settings, "loop needs a log to replay: add replay = FILE (or --replay FILE), or drop loop")
        }
        // One source: the settings that pick a kind of source (sourceKinds) exclude each other, in the table's order.
        let sources = Self.settings.filter { $0.choice == Self.sourceChoice && $0.isGiven(self) }
        if sources.count > 1 {
            let (first, second) = (sources[0].key, sources[1].key)
            let reads = { (key: String) in Self.sourceKinds.first { $0.key == key }?.reads ?? key }
            throw DaemonError(
                .settings, "\(first) and \(second) exclude each other: \(reads(first)) or \(reads(second)); keep one")
        }
        if noCalibration == true, calibration != nil {
            throw DaemonError(.settings, "calibration FILE and no_calibration exclude each other; keep one")
        }
        let useMagnetometer = !(noMag ?? false)
        let source = TiltDaemon.Source(sourceConfiguration)
        var pipeline = MotionPipeline.Configuration()
        pipeline.filter.useMagnetometer = useMagnetometer
        if let limit { pipeline.shaping.limit = limit }
        let choice: CalibrationLoader.Choice =
            if noCalibration == true {
                .disabled(reason: "disabled by --no-calibration")
            } else if let calibration {
                .file(calibration)
            } else {
                .automatic(directories: calibrationDirs ?? CalibrationLoader.defaultDirectories())
            }
        var configuration = TiltDaemon.Configuration(
            socketPath: socket, source: source, pipeline: pipeline, calibration: choice)
        if let dmiRoot { configuration.dmiRoot = dmiRoot }
        configuration.power = power == false ? nil : powerConfiguration
        configuration.sensorProxy = sensorProxy == true
        configuration.sensorProxyBus = systemBus
        configuration.dsuServer = dsuServer
        var policy = ServicePolicy()
        if let maxClients { policy.maxClients = maxClients }
        if let maxLineLength { policy.maxLineLength = maxLineLength }
        if let commandsPerSecond { policy.commandsPerSecond = commandsPerSecond }
        if let rawQueueSeconds { policy.rawQueueSeconds = rawQueueSeconds }
        if let socketGroup { policy.socketGroup = try UnixGroup.lookup(socketGroup, key: "socket_group") }
        if let adminGroup { policy.adminGroup = try UnixGroup.lookup(adminGroup, key: "admin_group") }
        configuration.policy = policy
        configuration.logLevel = logLevel ?? Self.defaultLogLevel
        return configuration
    }

    /// Where the power state comes from: the defaults with what these options give put over them.
    private var powerConfiguration: PowerMonitor.Configuration {
        var power = PowerMonitor.Configuration()
        if let powerSupplyRoot { power.powerSupplyRoot = powerSupplyRoot }
        if let platformProfile { power.platformProfilePath = platformProfile }
        if let systemBus { power.bus = .address(systemBus) }
        if let powerPoll { power.pollInterval = powerPoll }
        return power
    }
}
