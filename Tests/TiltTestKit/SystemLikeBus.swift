import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A private `dbus-daemon` with a configuration like Debian's system bus (method calls and owning names denied unless
/// a policy allows them) plus the policy files given: to check that `dist/`'s policy lets tiltd serve.
public final class SystemLikeBus {
    /// The bus address, `unix:path=…`.
    public let address: String
    private let directory: URL
    private let daemon = Process()

    /// Starts the bus with `policies` (paths of `<busconfig>` files) included, and waits until it accepts
    /// connections.
    /// - Throws: ``TestError`` when dbus-daemon refuses the configuration or does not start within 10 s.
    public init(including policies: [String]) throws {
        directory = TestPaths.temporaryDirectory("tilt-sysbus")
        let socket = directory.appendingPathComponent("bus").path
        address = "unix:path=\(socket)"
        let includes = policies.map { "  <include>\($0)</include>" }.joined(separator: "\n")
        let config = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>system</type>
              <listen>\(address)</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow user="*"/>
                <deny own="*"/>
                <deny send_type="method_call"/>
                <allow send_type="signal"/>
                <allow send_requested_reply="true" send_type="method_return"/>
                <allow send_requested_reply="true" send_type="error"/>
                <allow receive_type="method_call"/>
                <allow receive_type="method_return"/>
                <allow receive_type="error"/>
                <allow receive_type="signal"/>
                <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus"/>
                <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Introspectable"/>
                <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Properties"/>
              </policy>
            \(includes)
            </busconfig>
            """
        let configPath = directory.appendingPathComponent("system-like.conf").path
        try config.write(toFile: configPath, atomically: true, encoding: .utf8)
        let errors = Pipe()
        daemon.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        daemon.arguments = ["--config-file=\(configPath)", "--nofork", "--nopidfile", "--nosyslog"]
        daemon.standardOutput = FileHandle.nullDevice
        daemon.standardError = errors
        try daemon.run()
        let deadline = Deadline(seconds: 10)
        while !FileManager.default.fileExists(atPath: socket) {
            guard !deadline.hasPassed, daemon.isRunning else {
                let text =
                    daemon.isRunning ? "" : String(decoding: errors.fileHandleForReading.availableData, as: UTF8.self)
                throw TestError("dbus-daemon with \(policies) did not start within 10 s: \(text)")
            }
            usleep(20_000)
        }
    }

    deinit {
        if daemon.isRunning {
            kill(daemon.processIdentifier, SIGKILL)
            daemon.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }
}
