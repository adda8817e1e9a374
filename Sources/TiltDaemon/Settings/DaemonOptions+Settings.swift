import Logging
import TiltFusion
import TiltPower
import TiltSensors

extension DaemonOptions {
    /// Every `tiltd` setting, in the order of `tiltd.conf`; the one place a setting is described (a motion source's
    /// with its kind, ``sourceKinds``).
    ///
    /// Defaults are the constants the daemon itself uses (``ServicePolicy``, ``CalibrationLoader``, the sensors'
    /// configurations), so the documentation cannot drift from the behaviour.
    package static let settings: [Setting] =
        [
            Setting(
                "socket", \.socket, flag: .value("socket", valueName: "PATH"), section: .socket,
                accepts: .path("a socket path"), default: "$TILTD_SOCKET, else $XDG_RUNTIME_DIR/tiltd.sock",
                sample: "/run/tiltd/tiltd.sock",
                help:
                    "Unix socket path; ignored under systemd socket activation (tiltd.socket's ListenStream= decides)."),
            Setting(
                "socket_group", \.socketGroup, flag: .value("socket-group", valueName: "GROUP"), section: .socket,
                accepts: .name("a group name or gid"), default: "the daemon's group", sample: "tilt",
                help: "Give the socket file (mode 0660) to this group: its members may connect."),
            Setting(
                "admin_group", \.adminGroup, flag: .value("admin-group", valueName: "GROUP"), section: .security,
                accepts: .name("a group name or gid"), default: "none (only the daemon's user and root)",
                sample: "tilt-admin",
                help: "Members of this group may send shared commands (tare), besides the daemon's user and root.",
                note: "Watching, poll and status are open to anyone who can connect."),
            Setting(
                "max_clients", \.maxClients, flag: .value("max-clients", valueName: "N"), section: .limits,
                accepts: .wholeNumber(in: ServicePolicy.maxClientsRange), default: "\(ServicePolicy.defaultMaxClients)",
                help:
                    "Clients served at once; the next one gets an error line saying the daemon is full, and is closed."),
            Setting(
                "max_line_length", \.maxLineLength, flag: .value("max-line-length", valueName: "BYTES"),
                section: .limits,
                accepts: .wholeNumber(in: ServicePolicy.lineLengthRange, of: "bytes"),
                default: "\(ServicePolicy.lineLengthRange.upperBound)",
                help: "The longest command line accepted, in bytes; a longer one gets an error and is discarded."),
            Setting(
                "commands_per_second", \.commandsPerSecond, flag: .value("commands-per-second", valueName: "N"),
                section: .limits,
                accepts: .number(
                    "a number from \(plain(ServicePolicy.commandRateRange.lowerBound)) (no limit) to "
                        + "\(plain(ServicePolicy.commandRateRange.upperBound)), e.g. 20",
                    in: ServicePolicy.commandRateRange),
                default: plain(ServicePolicy.defaultCommandsPerSecond),
                help: "Commands per second per client, on average; bursts of twice that pass; 0: no limit.",
                note: "Over it a command gets a \"rate limit\" error and is dropped; a client that keeps sending is "
                    + "disconnected."),
            Setting(
                "raw_queue_seconds", \.rawQueueSeconds, flag: .value("raw-queue-seconds", valueName: "SECONDS"),
                section: .limits,
                accepts: .number(
                    "seconds from \(plain(ServicePolicy.rawQueueRange.lowerBound)) to "
                        + "\(plain(ServicePolicy.rawQueueRange.upperBound)), e.g. 10",
                    in: ServicePolicy.rawQueueRange),
                default: plain(ServicePolicy.defaultRawQueueSeconds),
                help: "Seconds of raw samples (at the rate they arrive) queued for a raw watcher that does not read.",
                note: "Beyond them samples are dropped, counted in status.client.dropped and told in a \"gap\" message."
            ),
            Setting(
                "log_level", \.logLevel, flag: .value("log-level", valueName: "LEVEL"), section: .logging,
                accepts: .oneOf("trace, debug, info, notice, warning, error or critical"),
                default: defaultLogLevel.rawValue,
                help: "The least severe messages logged: trace, debug, info, notice, warning, error or critical."),
            Setting(
                "log_format", \.logFormat, flag: .value("log-format", valueName: "FORMAT"), section: .logging,
                accepts: .oneOf("auto, journal or plain"), default: defaultLogFormat.rawValue,
                help: "journal (<N>message key=value, no timestamps), plain, or auto: journal when $JOURNAL_STREAM is "
                    + "stderr."),
        ] + sourceKinds.flatMap(\.settings) + [
            Setting(
                "no_mag", \.noMag, flag: .inverseToggle("mag"), section: .sensor, accepts: .boolean(), default: "false",
                help: "Ignore the magnetometer (6D fusion)."),
            Setting(
                "limit", \.limit, flag: .value("limit", valueName: "RADIANS"), section: .sensor,
                accepts: .positive("a positive angle in radians, e.g. 0.5"),
                default: plain(TiltShaper.Configuration().limit), help: "Tilt soft-clamp limit, radians."),
            Setting(
                "calibration", \.calibration, flag: .value("calibration", valueName: "FILE"), section: .calibration,
                accepts: .path("a calibration file path"), default: "none (search calibration_dir)",
                sample: "/etc/tiltd/calibration.d/my-laptop.calib",
                help: "Apply this calibration file, whatever its [match] says.", choice: "calibration"),
            Setting(
                "calibration_dir", \.calibrationDirs, flag: .repeatable("calibration-dir", valueName: "DIR"),
                section: .calibration, accepts: .paths(separatedBy: ":", "one folder or several separated by ':'"),
                default: "/etc/tiltd/calibration.d:~/.config/tilt/calibration.d:bundled",
                sample: "/etc/tiltd/calibration.d",
                help:
                    "Search these folders for the best matching calibration file instead of the defaults (':'-separated "
                    + "in the file; the flag repeats; also $\(CalibrationLoader.pathVariable)).",
                choice: "calibration"),
            Setting(
                "no_calibration", \.noCalibration, flag: .presence("no-calibration"), section: .calibration,
                accepts: .boolean(), default: "false", help: "Apply no calibration.", choice: "calibration"),
            Setting(
                "dmi_root", \.dmiRoot, flag: .value("dmi-root", valueName: "DIR"), section: .calibration,
                accepts: .path("a folder path"), default: CalibrationLoader.defaultDMIRoot,
                help: "Where DMI strings are read to match calibration files."),
            Setting(
                "power", \.power, flag: .toggle("power"), section: .power, accepts: .boolean("on or off"),
                default: "on",
                help:
                    "Probe the power state (battery, platform profile, power-profiles-daemon); off publishes mains power."
            ),
            Setting(
                "power_poll", \.powerPoll, flag: .value("power-poll", valueName: "SECONDS"), section: .power,
                accepts: .number("seconds, at least 0.1", in: 0.1...Double.greatestFiniteMagnitude),
                default: plain(PowerMonitor.Configuration().pollInterval),
                help: "Seconds between re-reads of the power_supply files (they have no change notification)."),
            Setting(
                "power_supply_root", \.powerSupplyRoot, flag: .value("power-supply-root", valueName: "DIR"),
                section: .power, accepts: .path("a folder path"), default: PowerSupplyProbe.defaultRoot,
                help: "The power_supply class folder (mains, battery)."),
            Setting(
                "platform_profile", \.platformProfile, flag: .value("platform-profile", valueName: "FILE"),
                section: .power, accepts: .path("a file path"), default: PowerMonitor.defaultPlatformProfilePath,
                help: "The ACPI platform profile file."),
            Setting(
                "system_bus", \.systemBus, flag: .value("system-bus", valueName: "ADDRESS"), section: .power,
                accepts: .name("a D-Bus address"), default: "$DBUS_SYSTEM_BUS_ADDRESS, else the system bus",
                sample: "unix:path=/run/dbus/system_bus_socket",
                help: "D-Bus address for power-profiles-daemon, and for sensor_proxy."),
            Setting(
                "sensor_proxy", \.sensorProxy, flag: .presence("sensor-proxy"), section: .power, accepts: .boolean(),
                default: "false",
                help: "Serve net.hadess.SensorProxy (iio-sensor-proxy's D-Bus service: orientation for desktop "
                    + "auto-rotation) on the system bus, or the one system_bus names."),
            Setting(
                "dsu_server", \.dsuServer, flag: .value("dsu-server", valueName: "ADDRESS[:PORT]"), section: .dsu,
                accepts: .dsu(
                    "ADDRESS[:PORT] (port 0 to 65535; 0: any free one), e.g. 127.0.0.1:26760", allowsSlot: false),
                default: "off", sample: "127.0.0.1:\(DSUPacket.defaultPort)",
                help:
                    "Serve the sensor's motion over DSU (cemuhook) on this UDP address, for emulators (Cemu, Dolphin, "
                    + "Citra, Ryujinx, RPCS3); a subscribed emulator counts as a watcher.",
                note: "Anything but a loopback address lets every machine that reaches it read this device's motion; "
                    + "tiltd logs that choice (docs/dsu.md)."),
        ]

    /// The log level when none is given.
    package static let defaultLogLevel = Logger.Level.info
    /// The log format when none is given.
    package static let defaultLogFormat = JournalLogHandler.Format.auto
    /// The libiio context read when no `uri` is given: this machine's sensors.
    package static let defaultIIOURI = "local:"
    /// The setting with config key `key`, if there is one.
    package static func setting(key: String) -> Setting? {
        settings.first { $0.key == key }
    }

    /// The setting a flag named `flag` (no dashes: `max-clients`, `mag`) gives, if there is one.
    package static func setting(flag: String) -> Setting? {
        settings.first { $0.flag.name == flag }
    }

    /// `20` for 20.0, `0.5` for 0.5: numbers as people write them in a config file.
    static func plain(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
