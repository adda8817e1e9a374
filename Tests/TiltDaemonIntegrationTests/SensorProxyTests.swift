import Foundation
import Testing
import TiltTestKit

#if canImport(Glibc)
    import Glibc
#endif

/// `tiltd --sensor-proxy` (issue 16) against the real `monitor-sensor` from Debian's iio-sensor-proxy package and a
/// real D-Bus client, on a private `dbus-daemon` standing in for the system bus.
@Suite(
    .serialized, .timeLimit(.minutes(2)),
    .enabled(if: SensorProxyTools.unavailableReason == nil, "needs dbus-daemon, monitor-sensor and python3-dbus"))
struct SensorProxyTests {
    static let monitorSensor = SensorProxyTools.monitorSensor
    static let python = "/usr/bin/python3"

    /// A device turned 90° clockwise about the screen's normal: normal for 2 s, left-up from 3 s.
    static var turnLog: String { TestPaths.fixture("turn-left-up.csv") }

    /// A D-Bus client in its own process (dbus-python): claims the accelerometer twice, prints `claimed`, releases
    /// it once when the file `argv[2]` appears and prints `released`, then stays connected until killed.
    static let claimClient = """
        import dbus, os, sys, time
        bus = dbus.bus.BusConnection(sys.argv[1])
        proxy = dbus.Interface(bus.get_object("net.hadess.SensorProxy", "/net/hadess/SensorProxy"), \
        "net.hadess.SensorProxy")
        proxy.ClaimAccelerometer()
        proxy.ClaimAccelerometer()
        print("claimed", flush=True)
        while not os.path.exists(sys.argv[2]):
            time.sleep(0.02)
        proxy.ReleaseAccelerometer()
        print("released", flush=True)
        time.sleep(3600)
        """

    private func startDaemon(bus: PrivateBus, in dir: URL, extra: [String] = []) throws -> DaemonProcess {
        let daemon = try DaemonProcess.replaying(
            ["--sensor-proxy", "--system-bus", bus.address, "--no-power"] + extra, log: Self.turnLog, in: dir)
        guard daemon.waitForLog("serving net.hadess.SensorProxy") else {
            throw TestError("tiltd did not take net.hadess.SensorProxy: \(daemon.log)")
        }
        return daemon
    }

    private func monitorSensor(bus: PrivateBus) throws -> BackgroundProcess {
        try BackgroundProcess("/usr/bin/env", ["DBUS_SYSTEM_BUS_ADDRESS=\(bus.address)", Self.monitorSensor])
    }

    /// The `sensor` state in `status`, waited for up to 10 s.
    private func waitForSensor(_ client: LineSocket, _ state: String) throws -> Bool {
        try eventually(timeout: 10) { try client.status()?["sensor"] as? String == state }
    }

    @Test("monitor-sensor sees the accelerometer and the turn to left-up; socket clients get orientation events")
    func monitorSensorSeesTheTurn() throws {
        let bus = try PrivateBus()
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let daemon = try startDaemon(bus: bus, in: dir)
        defer { daemon.stop() }
        let (client, _) = try daemon.greetedClient()
        let monitor = try monitorSensor(bus: bus)
        let sawTurn = eventually(timeout: 15) {
            monitor.stdout.contains("Accelerometer orientation changed: left-up")
        }
        #expect(sawTurn, "monitor-sensor printed: \(monitor.stdout)\(monitor.stderr); tiltd: \(daemon.log)")
        #expect(monitor.stdout.contains("=== Has accelerometer (orientation: "))
        #expect(monitor.stdout.contains("Accelerometer orientation changed: normal"))
        #expect(!monitor.stdout.contains("Failed to claim"), "\(monitor.stderr)")
        // The same changes on the socket, in order, and in status.
        var seen: [String] = []
        while let event = client.read(class: "orientation", timeout: 2) {
            seen.append("\(event["orientation"] ?? "?")/\(event["tilt"] ?? "?")")
        }
        #expect(seen == ["normal/vertical", "left-up/vertical"])
        let orientation = try #require(try client.status()?["orientation"] as? [String: Any])
        #expect(orientation["orientation"] as? String == "left-up" && orientation["tilt"] as? String == "vertical")
        let human = try ChildProcess.run(
            TestPaths.executable("tilt"), ["status", "--socket", try #require(daemon.socketPath)])
        #expect(human.stdout.contains("orientation  left-up, tilt vertical"), "\(human.stdout)\(human.stderr)")
        // The properties a client reads, and the compass object GeoClue asks (no compass here).
        let get = { (path: String, interface: String, property: String) throws -> String in
            try ChildProcess.run(
                "/usr/bin/gdbus",
                [
                    "call", "--address", bus.address, "--dest", "net.hadess.SensorProxy", "--object-path", path,
                    "--method", "org.freedesktop.DBus.Properties.Get", interface, property,
                ]
            ).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(try get("/net/hadess/SensorProxy", "net.hadess.SensorProxy", "AccelerometerTilt") == "(<'vertical'>,)")
        #expect(try get("/net/hadess/SensorProxy", "net.hadess.SensorProxy", "HasAmbientLight") == "(<false>,)")
        let compass = "/net/hadess/SensorProxy/Compass"
        #expect(try get(compass, "net.hadess.SensorProxy.Compass", "HasCompass") == "(<false>,)")
        // Introspection, parsed by gdbus: each object's interface with its properties and methods, the main
        // object's standard interfaces and its compass child.
        let introspect = { (path: String) throws -> String in
            try ChildProcess.run(
                "/usr/bin/gdbus",
                ["introspect", "--address", bus.address, "--dest", "net.hadess.SensorProxy", "--object-path", path]
            ).stdout
        }
        let main = try introspect("/net/hadess/SensorProxy")
        for line in [
            "interface net.hadess.SensorProxy", "ClaimAccelerometer();", "ReleaseProximity();",
            "readonly s AccelerometerOrientation", "readonly d LightLevel", "interface org.freedesktop.DBus.Properties",
            "PropertiesChanged(", "interface org.freedesktop.DBus.Introspectable", "node Compass",
        ] {
            #expect(main.contains(line), "\(line) in \(main)")
        }
        let compassXML = try introspect(compass)
        for line in ["interface net.hadess.SensorProxy.Compass", "readonly b HasCompass", "ClaimCompass();"] {
            #expect(compassXML.contains(line), "\(line) in \(compassXML)")
        }
        #expect(!compassXML.contains("ClaimAccelerometer"))
    }

    @Test("a claim starts the sensor, one release stops it (a caller holds one claim), a caller that dies releases")
    func claimsStartAndStopTheSensor() throws {
        let bus = try PrivateBus()
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let daemon = try startDaemon(bus: bus, in: dir, extra: ["--loop"])
        defer { daemon.stop() }
        let (client, _) = try daemon.greetedClient()
        #expect(try client.status()?["sensor"] as? String == "idle", "nobody claims yet")

        // An explicit release, the caller still connected.
        let releaseFile = dir.appendingPathComponent("release").path
        let caller = try BackgroundProcess(Self.python, ["-c", Self.claimClient, bus.address, releaseFile])
        #expect(eventually { caller.stdout.contains("claimed") }, "\(caller.stderr)")
        #expect(try waitForSensor(client, "active"), "a claim starts the sensor: \(daemon.log)")
        #expect(FileManager.default.createFile(atPath: releaseFile, contents: Data()))
        #expect(eventually { caller.stdout.contains("released") }, "\(caller.stderr)")
        #expect(try waitForSensor(client, "idle"), "the release stops it: \(daemon.log)")
        #expect(caller.process.isRunning, "released by the call, not by leaving the bus")

        // A caller that dies without releasing: monitor-sensor, killed.
        let monitor = try monitorSensor(bus: bus)
        #expect(try waitForSensor(client, "active"), "monitor-sensor's claim starts the sensor: \(monitor.stdout)")
        #expect(monitor.kill(SIGKILL))
        #expect(try waitForSensor(client, "idle"), "its claim goes with it: \(daemon.log)")
        #expect(daemon.log.contains("0 caller(s) claim the accelerometer"))
    }

    @Test(
        "on a system-like bus, dist/'s policy lets tiltd (as root) own the name and others call it; without it, a clear error",
        .enabled(if: getuid() == 0, "the policy grants the name to root and the service user tilt"))
    func systemBusPolicy() throws {
        let policy = TestPaths.repositoryRoot.appendingPathComponent("dist/net.hadess.SensorProxy.tiltd.conf").path
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }

        let bare = try SystemLikeBus(including: [])
        let refused = try DaemonProcess.replaying(
            ["--sensor-proxy", "--system-bus", bare.address, "--no-power"], log: Self.turnLog, in: dir,
            socket: "refused.sock")
        #expect(refused.waitForExit(timeout: 10) == 1, "\(refused.log)")
        #expect(refused.log.contains("does not let this user own net.hadess.SensorProxy"), "\(refused.log)")

        let bus = try SystemLikeBus(including: [policy])
        let daemon = try DaemonProcess.replaying(
            ["--sensor-proxy", "--system-bus", bus.address, "--no-power"], log: Self.turnLog, in: dir)
        defer { daemon.stop() }
        #expect(daemon.waitForLog("serving net.hadess.SensorProxy"), "\(daemon.log)")
        let monitor = try BackgroundProcess(
            "/usr/bin/env", ["DBUS_SYSTEM_BUS_ADDRESS=\(bus.address)", Self.monitorSensor])
        #expect(
            eventually(timeout: 15) { monitor.stdout.contains("Accelerometer orientation changed: left-up") },
            "\(monitor.stdout)\(monitor.stderr)")
    }

    @Test(
        "a fake buffered IMU in a namespace: monitor-sensor's claim enables the buffer, a turn is seen, its death disables it",
        .enabled(
            if: FakeIIOTree.namespacesWork, "unprivileged user+mount namespaces (unshare -rm) are not permitted here"))
    func fakeIIODevice() throws {
        let bus = try PrivateBus()
        let tree = try FakeIIOTree()
        let type = FakeIIOTree.imuScanType
        try tree.addDisplayIMU()
        let socketPath = tree.root.appendingPathComponent("tiltd.sock").path
        let daemon = try tree.start([
            TestPaths.executable("tiltd"), "--socket", socketPath, "--sensor-proxy", "--system-bus", bus.address,
            "--no-power",
        ])
        defer {
            if daemon.process.isRunning { kill(daemon.process.processIdentifier, SIGKILL) }
        }
        #expect(eventually { FileManager.default.fileExists(atPath: socketPath) }, "tiltd creates its socket")
        #expect(tree.read(device: 0, "buffer/enable") == "0", "nothing runs before anyone claims")

        let monitor = try monitorSensor(bus: bus)
        #expect(eventually { tree.read(device: 0, "buffer/enable") == "1" }, "the claim enables the buffer")
        // Upright 2 s, turned 90° clockwise about the screen's normal in 1 s, held 2 s; 50 Hz, counts of 0.001.
        var scans: [[UInt8]] = []
        var angle = 0.0
        for i in 0..<250 {
            let turning = (100..<150).contains(i)
            let accel = [-9807 * sin(angle), 9807 * cos(angle), 0].map { Int64($0.rounded()) }
            let gyroZ: Int64 = turning ? -1571 : 0
            scans.append(
                FakeIIOTree.pack(
                    accel + [0, 0, gyroZ], type: type, timestampNs: 1_000_000_000 + Int64(i) * 20_000_000))
            if turning { angle = min(.pi / 2, angle + .pi / 2 / 50) }
        }
        try tree.feed(0, scans: scans, interval: 0.004)
        #expect(
            eventually { monitor.stdout.contains("Accelerometer orientation changed: left-up") },
            "monitor-sensor printed: \(monitor.stdout)")
        #expect(monitor.stdout.contains("Accelerometer orientation changed: normal"))

        #expect(monitor.kill(SIGKILL))
        #expect(eventually { tree.read(device: 0, "buffer/enable") == "0" }, "the dead caller's claim is released")
        kill(daemon.process.processIdentifier, SIGTERM)
        let result = try daemon.wait()
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test("a second tiltd --sensor-proxy exits 1 naming the program that owns the name")
    func nameAlreadyTaken() throws {
        let bus = try PrivateBus()
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = try startDaemon(bus: bus, in: dir)
        defer { first.stop() }
        let second = try DaemonProcess.replaying(
            ["--sensor-proxy", "--system-bus", bus.address, "--no-power"], log: Self.turnLog, in: dir,
            socket: "second.sock")
        let status = second.waitForExit(timeout: 10)
        #expect(status == 1, "\(second.log)")
        #expect(
            second.log.contains(
                """
                error: net.hadess.SensorProxy is already owned on the bus \(bus.address) by PID \(first.pid) (tiltd); \
                stop it (systemctl stop iio-sensor-proxy) or run tiltd without --sensor-proxy
                """), "\(second.log)")
        // The first one still serves.
        let monitor = try monitorSensor(bus: bus)
        #expect(eventually { monitor.stdout.contains("=== Has accelerometer") }, "\(monitor.stdout)")
    }
}

/// What the `--sensor-proxy` tests need: Debian's dbus-daemon, monitor-sensor and python3-dbus.
enum SensorProxyTools {
    static let monitorSensor = "/usr/bin/monitor-sensor"

    /// Why these tests cannot run here, or `nil`.
    static var unavailableReason: String? {
        let files = FileManager.default
        if !files.isExecutableFile(atPath: "/usr/bin/dbus-daemon") {
            return "dbus-daemon is not installed (Debian package dbus; scripts/bootstrap installs it)"
        }
        if !files.isExecutableFile(atPath: monitorSensor) {
            return "monitor-sensor is not installed (Debian package iio-sensor-proxy; scripts/bootstrap installs it)"
        }
        if !files.fileExists(atPath: "/usr/lib/python3/dist-packages/dbus") {
            return "Debian's python3-dbus is not installed (python3-dbusmock brings it; scripts/bootstrap installs it)"
        }
        return nil
    }
}
