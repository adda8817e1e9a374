import Logging
import TiltFusion
import TiltSensors

/// Everything `tiltd` can be told, from its config file or its flags; `nil` means "not given here".
///
/// A config file and the command line each fill one; ``overlaid(by:)`` lets flags win over the file, and
/// ``makeConfiguration()`` applies the defaults and checks what only the whole can tell (a `loop` with no `replay`).
/// Every key is listed in ``keys`` with what it expects, which also drives the error messages.
public struct DaemonOptions: Sendable, Equatable {
    public var socket: String?
    public var socketGroup: String?
    public var adminGroup: String?
    public var maxClients: Int?
    public var maxLineLength: Int?
    public var commandsPerSecond: Double?
    public var logLevel: Logger.Level?
    public var logFormat: JournalLogHandler.Format?
    public var replay: String?
    public var speed: Double?
    public var loop: Bool?
    public var uri: String?
    public var noMag: Bool?
    public var limit: Double?
    public var calibration: String?
    public var calibrationDirs: [String]?
    public var noCalibration: Bool?
    public var dmiRoot: String?
    public var power: Bool?
    public var powerPoll: Double?
    public var powerSupplyRoot: String?
    public var platformProfile: String?
    public var systemBus: String?

    public init() {}

    /// One config key: its name, what it expects (for messages and `--help`), its default, and how it is set.
    public struct Key: Sendable {
        public var name: String
        public var expects: String
        public var defaultValue: String
        let apply: @Sendable (inout DaemonOptions, String) -> String?
    }

    /// Reads the config file at `path`.
    ///
    /// - Throws: ``ConfigError`` naming the file, the line and the key for an unreadable file, a malformed line, an
    ///   unknown key or a bad value.
    public static func load(path: String) throws(ConfigError) -> DaemonOptions {
        try DaemonOptions(file: ConfigFile.read(path: path))
    }

    /// The options a parsed config file gives.
    ///
    /// - Throws: ``ConfigError`` for an unknown key or a bad value.
    public init(file: ConfigFile) throws(ConfigError) {
        self.init()
        for entry in file.entries {
            guard let key = Self.keys.first(where: { $0.name == entry.key }) else {
                throw ConfigError(
                    path: file.path, line: entry.line, key: entry.key,
                    reason: "unknown key; known keys: \(Self.keys.map(\.name).joined(separator: ", "))")
            }
            if let problem = key.apply(&self, entry.value) {
                let detail = problem.isEmpty ? "" : "; \(problem)"
                throw ConfigError(
                    path: file.path, line: entry.line, key: entry.key,
                    reason: "expected \(key.expects), got '\(entry.value.prefix(80))'\(detail)")
            }
        }
    }

    /// These options with every value `flags` gives put over them.
    ///
    /// A calibration choice is one thing: a flag naming any of `calibration`, `calibration_dir` or `no_calibration`
    /// replaces the file's choice as a whole.
    public func overlaid(by flags: DaemonOptions) -> DaemonOptions {
        var merged = self
        if flags.calibration != nil || flags.calibrationDirs != nil || flags.noCalibration != nil {
            merged.calibration = nil
            merged.calibrationDirs = nil
            merged.noCalibration = nil
        }
        func take<T>(_ path: WritableKeyPath<DaemonOptions, T?>) {
            if let value = flags[keyPath: path] { merged[keyPath: path] = value }
        }
        take(\.socket)
        take(\.socketGroup)
        take(\.adminGroup)
        take(\.maxClients)
        take(\.maxLineLength)
        take(\.commandsPerSecond)
        take(\.logLevel)
        take(\.logFormat)
        take(\.replay)
        take(\.speed)
        take(\.loop)
        take(\.uri)
        take(\.noMag)
        take(\.limit)
        take(\.calibration)
        take(\.calibrationDirs)
        take(\.noCalibration)
        take(\.dmiRoot)
        take(\.power)
        take(\.powerPoll)
        take(\.powerSupplyRoot)
        take(\.platformProfile)
        take(\.systemBus)
        return merged
    }

    /// The daemon configuration these options describe, defaults filled in and groups looked up.
    ///
    /// - Throws: ``DaemonError`` for options that contradict each other or a group that does not exist.
    public func makeConfiguration() throws(DaemonError) -> TiltDaemon.Configuration {
        if loop == true, replay == nil {
            throw DaemonError("loop needs a log to replay: add replay = FILE (or --replay FILE), or drop loop")
        }
        if noCalibration == true, calibration != nil {
            throw DaemonError("calibration FILE and no_calibration exclude each other; keep one")
        }
        let useMagnetometer = !(noMag ?? false)
        let source: TiltDaemon.Source =
            if let replay {
                .replay(.init(path: replay, speed: speed ?? 1, loop: loop ?? false, useMagnetometer: useMagnetometer))
            } else {
                .iio(uri: uri ?? "local:")
            }
        var pipeline = MotionPipeline.Configuration()
        pipeline.filter.useMagnetometer = useMagnetometer
        pipeline.shaping.limit = limit ?? 0.5
        let choice: CalibrationLoader.Choice =
            if noCalibration == true {
                .disabled(reason: "disabled by --no-calibration")
            } else if let calibration {
                .file(calibration)
            } else {
                .automatic(directories: calibrationDirs ?? CalibrationLoader.defaultDirectories())
            }
        var configuration = TiltDaemon.Configuration(
            socketPath: socket, source: source, pipeline: pipeline, calibration: choice,
            dmiRoot: dmiRoot ?? "/sys/class/dmi/id")
        configuration.power =
            power == false
            ? nil
            : PowerMonitor.Configuration(
                powerSupplyRoot: powerSupplyRoot ?? PowerSupplyProbe.defaultRoot,
                platformProfilePath: platformProfile ?? PowerMonitor.defaultPlatformProfilePath,
                bus: systemBus.map { .address($0) } ?? .system, pollInterval: powerPoll ?? 15)
        configuration.policy = ServicePolicy(
            maxClients: maxClients ?? ServicePolicy.defaultMaxClients,
            maxLineLength: maxLineLength ?? ServicePolicy.lineLengthRange.upperBound,
            commandsPerSecond: commandsPerSecond ?? ServicePolicy.defaultCommandsPerSecond,
            socketGroup: try socketGroup.map { name throws(DaemonError) in
                try UnixGroup.lookup(name, key: "socket_group")
            },
            adminGroup: try adminGroup.map { name throws(DaemonError) in
                try UnixGroup.lookup(name, key: "admin_group")
            })
        configuration.logLevel = logLevel ?? .info
        return configuration
    }
}
