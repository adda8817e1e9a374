import Logging
import TiltWire

extension DaemonOptions {
    /// Every config key, in the order of the sample `tiltd.conf`.
    public static let keys: [Key] = [
        Key(name: "socket", expects: "a socket path", defaultValue: "$XDG_RUNTIME_DIR/tiltd.sock") {
            $0.socket = try? path($1)
            return $0.socket == nil ? "" : nil
        },
        Key(name: "socket_group", expects: "a group name or gid", defaultValue: "the daemon's group") {
            $0.socketGroup = word($1)
            return $0.socketGroup == nil ? "" : nil
        },
        Key(
            name: "admin_group", expects: "a group name or gid",
            defaultValue: "none (only the daemon's user and root)"
        ) {
            $0.adminGroup = word($1)
            return $0.adminGroup == nil ? "" : nil
        },
        Key(name: "max_clients", expects: "a whole number from 1 to 1000000", defaultValue: "4096") {
            $0.maxClients = Int($1).flatMap { (1...1_000_000).contains($0) ? $0 : nil }
            return $0.maxClients == nil ? "" : nil
        },
        Key(
            name: "max_line_length",
            expects:
                "a whole number of bytes from \(ServicePolicy.lineLengthRange.lowerBound) to "
                + "\(ServicePolicy.lineLengthRange.upperBound)",
            defaultValue: "\(WireProtocol.maxLineLength)"
        ) {
            $0.maxLineLength = Int($1).flatMap { ServicePolicy.lineLengthRange.contains($0) ? $0 : nil }
            return $0.maxLineLength == nil ? "" : nil
        },
        Key(
            name: "commands_per_second", expects: "a number from 0 (no limit) to 100000, e.g. 20",
            defaultValue: "20"
        ) {
            $0.commandsPerSecond = Double($1).flatMap { $0 >= 0 && $0 <= 100_000 ? $0 : nil }
            return $0.commandsPerSecond == nil ? "" : nil
        },
        Key(
            name: "log_level", expects: "trace, debug, info, notice, warning, error or critical",
            defaultValue: "info"
        ) {
            $0.logLevel = Logger.Level(rawValue: $1.lowercased())
            return $0.logLevel == nil ? "" : nil
        },
        Key(name: "log_format", expects: "auto, journal or plain", defaultValue: "auto") {
            $0.logFormat = JournalLogHandler.Format(rawValue: $1.lowercased())
            return $0.logFormat == nil ? "" : nil
        },
        Key(name: "replay", expects: "a sensor log path (.csv or .csv.gz)", defaultValue: "none (read IIO)") {
            $0.replay = try? path($1)
            return $0.replay == nil ? "" : nil
        },
        Key(name: "speed", expects: "a positive number (1 is real time)", defaultValue: "1") {
            $0.speed = positive($1)
            return $0.speed == nil ? "" : nil
        },
        Key(name: "loop", expects: "true or false", defaultValue: "false") {
            $0.loop = bool($1)
            return $0.loop == nil ? "" : nil
        },
        Key(name: "uri", expects: "a libiio context URI such as local: or ip:HOST", defaultValue: "local:") {
            $0.uri = word($1)
            return $0.uri == nil ? "" : nil
        },
        Key(name: "no_mag", expects: "true or false", defaultValue: "false") {
            $0.noMag = bool($1)
            return $0.noMag == nil ? "" : nil
        },
        Key(name: "limit", expects: "a positive angle in radians, e.g. 0.5", defaultValue: "0.5") {
            $0.limit = positive($1)
            return $0.limit == nil ? "" : nil
        },
        Key(name: "calibration", expects: "a calibration file path", defaultValue: "none (search calibration_dir)") {
            $0.calibration = try? path($1)
            return $0.calibration == nil ? "" : nil
        },
        Key(
            name: "calibration_dir", expects: "one folder or several separated by ':'",
            defaultValue: "/etc/tiltd/calibration.d:~/.config/tilt/calibration.d:bundled"
        ) {
            let dirs = $1.split(separator: ":").map(String.init).filter { !$0.isEmpty }
            $0.calibrationDirs = dirs.isEmpty ? nil : dirs
            return $0.calibrationDirs == nil ? "" : nil
        },
        Key(name: "no_calibration", expects: "true or false", defaultValue: "false") {
            $0.noCalibration = bool($1)
            return $0.noCalibration == nil ? "" : nil
        },
        Key(name: "dmi_root", expects: "a folder path", defaultValue: "/sys/class/dmi/id") {
            $0.dmiRoot = try? path($1)
            return $0.dmiRoot == nil ? "" : nil
        },
        Key(name: "power", expects: "on or off", defaultValue: "on") {
            $0.power = bool($1)
            return $0.power == nil ? "" : nil
        },
        Key(name: "power_poll", expects: "seconds, at least 0.1", defaultValue: "15") {
            $0.powerPoll = Double($1).flatMap { $0 >= 0.1 && $0.isFinite ? $0 : nil }
            return $0.powerPoll == nil ? "" : nil
        },
        Key(name: "power_supply_root", expects: "a folder path", defaultValue: "/sys/class/power_supply") {
            $0.powerSupplyRoot = try? path($1)
            return $0.powerSupplyRoot == nil ? "" : nil
        },
        Key(name: "platform_profile", expects: "a file path", defaultValue: "/sys/firmware/acpi/platform_profile") {
            $0.platformProfile = try? path($1)
            return $0.platformProfile == nil ? "" : nil
        },
        Key(
            name: "system_bus", expects: "a D-Bus address",
            defaultValue: "$DBUS_SYSTEM_BUS_ADDRESS or the system bus"
        ) {
            $0.systemBus = word($1)
            return $0.systemBus == nil ? "" : nil
        },
    ]

    private struct Empty: Error {}

    private static func path(_ value: String) throws(Empty) -> String {
        guard !value.isEmpty, !value.contains("\0") else { throw Empty() }
        return value
    }

    private static func word(_ value: String) -> String? {
        value.isEmpty ? nil : value
    }

    private static func positive(_ value: String) -> Double? {
        Double(value).flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
    }

    private static func bool(_ value: String) -> Bool? {
        switch value.lowercased() {
        case "true", "yes", "on", "1": true
        case "false", "no", "off", "0": false
        default: nil
        }
    }
}
