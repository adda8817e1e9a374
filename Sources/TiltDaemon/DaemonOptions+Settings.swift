import Logging
import TiltFusion
import TiltSensors

extension DaemonOptions {
    /// Every `tiltd` setting, in the order of `tiltd.conf`; the one place a setting is described.
    ///
    /// Defaults are the constants the daemon itself uses (``ServicePolicy``, ``CalibrationLoader``, the sensors'
    /// configurations), so the documentation cannot drift from the behaviour.
    public static let settings: [Setting] = [
        Setting(
            "socket", \.socket, flag: .value("socket", valueName: "PATH"), section: .socket, expects: "a socket path",
            default: "$TILTD_SOCKET, else $XDG_RUNTIME_DIR/tiltd.sock", sample: "/run/tiltd/tiltd.sock",
            help: "Unix socket path; ignored under systemd socket activation (tiltd.socket's ListenStream= decides).",
            parse: path),
        Setting(
            "socket_group", \.socketGroup, flag: .value("socket-group", valueName: "GROUP"), section: .socket,
            expects: "a group name or gid", default: "the daemon's group", sample: "tilt",
            help: "Give the socket file (mode 0660) to this group: its members may connect.", parse: word),
        Setting(
            "admin_group", \.adminGroup, flag: .value("admin-group", valueName: "GROUP"), section: .security,
            expects: "a group name or gid", default: "none (only the daemon's user and root)", sample: "tilt-admin",
            help: "Members of this group may send shared commands (tare), besides the daemon's user and root.",
            note: "Watching, poll and status are open to anyone who can connect.", parse: word),
        Setting(
            "max_clients", \.maxClients, flag: .value("max-clients", valueName: "N"), section: .limits,
            expects: "a whole number from \(ServicePolicy.maxClientsRange.lowerBound) to "
                + "\(ServicePolicy.maxClientsRange.upperBound)",
            default: "\(ServicePolicy.defaultMaxClients)",
            help: "Clients served at once; the next one gets an error line saying the daemon is full, and is closed.",
            parse: { Int($0).flatMap { ServicePolicy.maxClientsRange.contains($0) ? $0 : nil } }),
        Setting(
            "max_line_length", \.maxLineLength, flag: .value("max-line-length", valueName: "BYTES"), section: .limits,
            expects: "a whole number of bytes from \(ServicePolicy.lineLengthRange.lowerBound) to "
                + "\(ServicePolicy.lineLengthRange.upperBound)",
            default: "\(ServicePolicy.lineLengthRange.upperBound)",
            help: "The longest command line accepted, in bytes; a longer one gets an error and is discarded.",
            parse: { Int($0).flatMap { ServicePolicy.lineLengthRange.contains($0) ? $0 : nil } }),
        Setting(
            "commands_per_second", \.commandsPerSecond, flag: .value("commands-per-second", valueName: "N"),
            section: .limits,
            expects: "a number from \(plain(ServicePolicy.commandRateRange.lowerBound)) (no limit) to "
                + "\(plain(ServicePolicy.commandRateRange.upperBound)), e.g. 20",
            default: plain(ServicePolicy.defaultCommandsPerSecond),
            help: "Commands per second per client, on average; bursts of twice that pass; 0: no limit.",
            note: "Over it a command gets a \"rate limit\" error and is dropped; a client that keeps sending is "
                + "disconnected.",
            parse: { Double($0).flatMap { ServicePolicy.commandRateRange.contains($0) ? $0 : nil } }),
        Setting(
            "log_level", \.logLevel, flag: .value("log-level", valueName: "LEVEL"), section: .logging,
            expects: "trace, debug, info, notice, warning, error or critical", default: "info",
            help: "The least severe messages logged: trace, debug, info, notice, warning, error or critical.",
            parse: { Logger.Level(rawValue: $0.lowercased()) }),
        Setting(
            "log_format", \.logFormat, flag: .value("log-format", valueName: "FORMAT"), section: .logging,
            expects: "auto, journal or plain", default: "auto",
            help: "journal (<N>message key=value, no timestamps), plain, or auto: journal when $JOURNAL_STREAM is "
                + "stderr.",
            parse: { JournalLogHandler.Format(rawValue: $0.lowercased()) }),
        Setting(
            "replay", \.replay, flag: .value("replay", valueName: "FILE"), section: .sensor,
            expects: "a sensor log path (.csv or .csv.gz)", default: "none (read IIO)",
            sample: "/var/lib/tilt/demo.csv.gz",
            help: "Replay this sensor log (.csv or .csv.gz) instead of reading IIO.",
            parse: path),
        Setting(
            "speed", \.speed, flag: .value("speed", valueName: "X"), section: .sensor,
            expects: "a positive number (1 is real time)",
            default: plain(LogReplaySource.Configuration(path: "").speed), help: "Replay speed: 1 is real time.",
            parse: positive),
        Setting(
            "loop", \.loop, flag: .toggle("loop"), section: .sensor, expects: "true or false", default: "false",
            help: "Start the replay over at the end of the log.", parse: bool),
        Setting(
            "uri", \.uri, flag: .value("uri", valueName: "URI"), section: .sensor,
            expects: "a libiio context URI such as local: or ip:HOST", default: "local:",
            help: "libiio context URI for live sensors: local: or ip:HOST.", parse: word),
        Setting(
            "no_mag", \.noMag, flag: .inverseToggle("mag"), section: .sensor, expects: "true or false",
            default: "false", help: "Ignore the magnetometer (6D fusion).", parse: bool),
        Setting(
            "limit", \.limit, flag: .value("limit", valueName: "RADIANS"), section: .sensor,
            expects: "a positive angle in radians, e.g. 0.5", default: plain(TiltShaper.Configuration().limit),
            help: "Tilt soft-clamp limit, radians.", parse: positive),
        Setting(
            "calibration", \.calibration, flag: .value("calibration", valueName: "FILE"), section: .calibration,
            expects: "a calibration file path", default: "none (search calibration_dir)",
            sample: "/etc/tiltd/calibration.d/my-laptop.calib",
            help: "Apply this calibration file, whatever its [match] says.", choice: "calibration", parse: path),
        Setting(
            list: "calibration_dir", \.calibrationDirs, separator: ":",
            flag: .repeatable("calibration-dir", valueName: "DIR"), section: .calibration,
            expects: "one folder or several separated by ':'",
            default: "/etc/tiltd/calibration.d:~/.config/tilt/calibration.d:bundled",
            sample: "/etc/tiltd/calibration.d",
            help: "Search these folders for the best matching calibration file instead of the defaults (':'-separated "
                + "in the file; the flag repeats; also $\(CalibrationLoader.pathVariable)).",
            choice: "calibration"),
        Setting(
            "no_calibration", \.noCalibration, flag: .presence("no-calibration"), section: .calibration,
            expects: "true or false", default: "false", help: "Apply no calibration.", choice: "calibration",
            parse: bool),
        Setting(
            "dmi_root", \.dmiRoot, flag: .value("dmi-root", valueName: "DIR"), section: .calibration,
            expects: "a folder path", default: CalibrationLoader.defaultDMIRoot,
            help: "Where DMI strings are read to match calibration files.", parse: path),
        Setting(
            "power", \.power, flag: .toggle("power"), section: .power, expects: "on or off", default: "on",
            help:
                "Probe the power state (battery, platform profile, power-profiles-daemon); off publishes mains power.",
            parse: bool),
        Setting(
            "power_poll", \.powerPoll, flag: .value("power-poll", valueName: "SECONDS"), section: .power,
            expects: "seconds, at least 0.1", default: plain(PowerMonitor.Configuration().pollInterval),
            help: "Seconds between re-reads of the power_supply files (they have no change notification).",
            parse: { Double($0).flatMap { $0 >= 0.1 && $0.isFinite ? $0 : nil } }),
        Setting(
            "power_supply_root", \.powerSupplyRoot, flag: .value("power-supply-root", valueName: "DIR"),
            section: .power, expects: "a folder path", default: PowerSupplyProbe.defaultRoot,
            help: "The power_supply class folder (mains, battery).", parse: path),
        Setting(
            "platform_profile", \.platformProfile, flag: .value("platform-profile", valueName: "FILE"),
            section: .power, expects: "a file path", default: PowerMonitor.defaultPlatformProfilePath,
            help: "The ACPI platform profile file.", parse: path),
        Setting(
            "system_bus", \.systemBus, flag: .value("system-bus", valueName: "ADDRESS"), section: .power,
            expects: "a D-Bus address", default: "$DBUS_SYSTEM_BUS_ADDRESS, else the system bus",
            sample: "unix:path=/run/dbus/system_bus_socket", help: "D-Bus address for power-profiles-daemon.",
            parse: word),
    ]

    /// The setting with config key `key`, if there is one.
    public static func setting(key: String) -> Setting? {
        settings.first { $0.key == key }
    }

    /// The setting a flag named `flag` (no dashes: `max-clients`, `mag`) gives, if there is one.
    public static func setting(flag: String) -> Setting? {
        settings.first { $0.flag.name == flag }
    }

    @Sendable private static func path(_ value: String) -> String? {
        value.isEmpty || value.contains("\0") ? nil : value
    }

    @Sendable private static func word(_ value: String) -> String? {
        value.isEmpty ? nil : value
    }

    @Sendable private static func positive(_ value: String) -> Double? {
        Double(value).flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
    }

    @Sendable private static func bool(_ value: String) -> Bool? {
        switch value.lowercased() {
        case "true", "yes", "on", "1": true
        case "false", "no", "off", "0": false
        default: nil
        }
    }

    /// `20` for 20.0, `0.5` for 0.5: numbers as people write them in a config file.
    private static func plain(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
