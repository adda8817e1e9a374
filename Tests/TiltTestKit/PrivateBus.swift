import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A private D-Bus daemon (Debian's `dbus-daemon`) with python-dbusmock's power-profiles-daemon on it, standing in
/// for the system bus: point a process at ``address`` through `DBUS_SYSTEM_BUS_ADDRESS` or `--system-bus`.
public final class PrivateBus {
    /// The bus address, `unix:path=…`.
    public let address: String
    private let directory: URL
    private let daemon = Process()
    private var mocks: [Process] = []

    /// Why the tests cannot run here, or `nil` if `dbus-daemon` and Debian's python3 with dbusmock are present.
    public static var unavailableReason: String? {
        if !FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-daemon") {
            return "dbus-daemon is not installed (Debian package dbus; scripts/bootstrap installs it)"
        }
        if !FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/dbusmock/templates") {
            return "python3-dbusmock is not installed (scripts/bootstrap installs it)"
        }
        return nil
    }

    /// Whether a private bus with dbusmock can run here: the condition of the D-Bus tests' `.enabled(if:)` trait, so
    /// that a machine without `dbus-daemon` or python3-dbusmock reports them as skipped, not passed.
    public static var isAvailable: Bool { unavailableReason == nil }

    /// Starts `dbus-daemon --session` on a socket in a temporary folder and waits until it accepts connections.
    public init() throws {
        directory = TestPaths.temporaryDirectory("tilt-bus")
        let socket = directory.appendingPathComponent("bus").path
        address = "unix:path=\(socket)"
        daemon.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        daemon.arguments = ["--session", "--nofork", "--nopidfile", "--address=\(address)"]
        daemon.standardOutput = FileHandle.nullDevice
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        let deadline = Deadline(seconds: 10)
        while !FileManager.default.fileExists(atPath: socket) {
            guard !deadline.hasPassed, daemon.isRunning else {
                throw TestError("dbus-daemon did not create \(socket) within 10 s")
            }
            usleep(20_000)
        }
    }

    /// Starts dbusmock's `power_profiles_daemon` template (net.hadess.PowerProfiles) with `profile` active, and waits
    /// until its name is on the bus.
    public func startPowerProfilesDaemon(profile: String = "balanced") throws {
        let mock = Process()
        mock.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        mock.arguments = [
            "-m", "dbusmock", "--system", "--template", "power_profiles_daemon",
            "--parameters", "{\"ActiveProfile\": \"\(profile)\"}",
        ]
        var env = ProcessInfo.processInfo.environment
        env["DBUS_SYSTEM_BUS_ADDRESS"] = address
        mock.environment = env
        mock.standardOutput = FileHandle.nullDevice
        mock.standardError = FileHandle.nullDevice
        try mock.run()
        mocks.append(mock)
        let deadline = Deadline(seconds: 15)
        while (try? activeProfile()) == nil {
            guard !deadline.hasPassed, mock.isRunning else {
                throw TestError("dbusmock's power_profiles_daemon did not appear on \(address) within 15 s")
            }
            usleep(50_000)
        }
    }

    /// Starts a bare dbusmock object under the newer name `org.freedesktop.UPower.PowerProfiles` (object
    /// `/org/freedesktop/UPower/PowerProfiles`) with an `ActiveProfile` property, as power-profiles-daemon 0.20+ has.
    public func startUPowerProfiles(profile: String) throws {
        let name = "org.freedesktop.UPower.PowerProfiles"
        let path = "/org/freedesktop/UPower/PowerProfiles"
        let mock = Process()
        mock.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        mock.arguments = ["-m", "dbusmock", "--system", name, path, name]
        var env = ProcessInfo.processInfo.environment
        env["DBUS_SYSTEM_BUS_ADDRESS"] = address
        mock.environment = env
        mock.standardOutput = FileHandle.nullDevice
        mock.standardError = FileHandle.nullDevice
        try mock.run()
        mocks.append(mock)
        let deadline = Deadline(seconds: 15)
        while true {
            let added = try? gdbus([
                "call", "--address", address, "--dest", name, "--object-path", path, "--method",
                "org.freedesktop.DBus.Mock.AddProperty", name, "ActiveProfile", "<'\(profile)'>",
            ])
            if added != nil { return }
            guard !deadline.hasPassed, mock.isRunning else {
                throw TestError("dbusmock did not put \(name) on \(address) within 15 s")
            }
            usleep(50_000)
        }
    }

    /// Sets `ActiveProfile` on the `org.freedesktop.UPower.PowerProfiles` mock.
    public func setUPowerActiveProfile(_ profile: String) throws {
        let name = "org.freedesktop.UPower.PowerProfiles"
        _ = try gdbus([
            "call", "--address", address, "--dest", name, "--object-path", "/org/freedesktop/UPower/PowerProfiles",
            "--method", "org.freedesktop.DBus.Properties.Set", name, "ActiveProfile", "<'\(profile)'>",
        ])
    }

    /// Reads `ActiveProfile` with `gdbus`.
    public func activeProfile() throws -> String {
        try gdbus([
            "call", "--address", address, "--dest", "net.hadess.PowerProfiles", "--object-path",
            "/net/hadess/PowerProfiles", "--method", "org.freedesktop.DBus.Properties.Get", "net.hadess.PowerProfiles",
            "ActiveProfile",
        ])
    }

    /// Sets `ActiveProfile` as a user would (`powerprofilesctl set`); the mock emits `PropertiesChanged`.
    public func setActiveProfile(_ profile: String) throws {
        _ = try gdbus([
            "call", "--address", address, "--dest", "net.hadess.PowerProfiles", "--object-path",
            "/net/hadess/PowerProfiles", "--method", "org.freedesktop.DBus.Properties.Set", "net.hadess.PowerProfiles",
            "ActiveProfile", "<'\(profile)'>",
        ])
    }

    private func gdbus(_ arguments: [String]) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/gdbus")
        p.arguments = arguments
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw TestError("gdbus \(arguments.joined(separator: " ")) failed") }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    deinit {
        for p in mocks + [daemon] where p.isRunning {
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }
}
