import Foundation
import Testing
import TiltTestKit

#if canImport(Glibc)
    import Glibc
#endif

/// The real `tiltd` reading a fake `power_supply` tree and a private D-Bus, seen through its socket.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct PowerEndToEndTests {
    /// Reads `power` events until one satisfies `condition`; fails naming `what`.
    private func waitForPower(
        _ socket: LineSocket, _ what: String, _ condition: ([String: Any]) -> Bool
    ) throws -> [String: Any] {
        let deadline = Deadline(seconds: 10)
        while !deadline.hasPassed {
            guard let event = socket.read(class: "power", timeout: deadline.remaining) else { break }
            if condition(event) { return event }
        }
        throw TestError("no power event with \(what) within 10 s")
    }

    @Test("hello carries the power state; unplugging and a low battery send power events")
    func sysfsChangesArePublished() throws {
        let fake = try FakePowerSupply()
        let dir = TestPaths.temporaryDirectory()
        let daemon = try DaemonProcess.replaying(
            [
                "--power-supply-root", fake.root, "--platform-profile", fake.platformProfile, "--system-bus",
                "unix:path=\(dir.path)/no-bus", "--power-poll", "0.1",
            ], in: dir)
        defer { daemon.stop() }
        let (client, hello) = try daemon.greetedClient()
        let power = try #require(hello["power"] as? [String: Any])
        #expect(power["onBattery"] as? Bool == false && power["capacity"] as? Int == 100)
        #expect(power["lowPower"] as? Bool == false)

        try fake.battery(capacity: 43)
        let unplugged = try waitForPower(client, "onBattery and 43 %") { $0["capacity"] as? Int == 43 }
        #expect(unplugged["onBattery"] as? Bool == true && unplugged["lowPower"] as? Bool == false)

        try fake.battery(capacity: 12)
        let low = try waitForPower(client, "12 %") { $0["capacity"] as? Int == 12 }
        #expect(low["lowPower"] as? Bool == true)

        try fake.setPlatformProfile("low-power")
        let profiled = try waitForPower(client, "the ACPI profile") { $0["profile"] as? String == "low-power" }
        #expect(profiled["lowPower"] as? Bool == true)

        try fake.mains(capacity: 12)
        try fake.setPlatformProfile("balanced")
        let back = try waitForPower(client, "mains again") {
            $0["onBattery"] as? Bool == false && $0["profile"] as? String == "balanced"
        }
        #expect(back["lowPower"] as? Bool == false)

        // A late client learns the state from hello.
        let (_, lateHello) = try daemon.greetedClient()
        #expect((lateHello["power"] as? [String: Any])?["profile"] as? String == "balanced")
    }

    @Test(
        "power-profiles-daemon's ActiveProfile (dbusmock on a private bus) is published as it changes",
        .enabled(if: PrivateBus.isAvailable, "needs dbus-daemon and python3-dbusmock (scripts/bootstrap installs them)")
    )
    func powerProfilesDaemonIsFollowed() throws {
        let bus = try PrivateBus()
        try bus.startPowerProfilesDaemon(profile: "balanced")
        let fake = try FakePowerSupply()
        let dir = TestPaths.temporaryDirectory()
        // The bus comes from DBUS_SYSTEM_BUS_ADDRESS, as sd_bus_open_system reads it; a long poll proves the
        // change arrives by signal.
        setenv("DBUS_SYSTEM_BUS_ADDRESS", bus.address, 1)
        defer { unsetenv("DBUS_SYSTEM_BUS_ADDRESS") }
        let daemon = try DaemonProcess.replaying(
            ["--power-supply-root", fake.root, "--platform-profile", fake.platformProfile, "--power-poll", "600"],
            in: dir)
        defer { daemon.stop() }
        let (client, hello) = try daemon.greetedClient()
        var profile = (hello["power"] as? [String: Any])?["profile"] as? String
        if profile != "balanced" {
            profile =
                try waitForPower(client, "balanced") { $0["profile"] as? String == "balanced" }["profile"]
                as? String
        }
        #expect(profile == "balanced")
        try bus.setActiveProfile("power-saver")
        let saver = try waitForPower(client, "power-saver") { $0["profile"] as? String == "power-saver" }
        #expect(saver["lowPower"] as? Bool == true && saver["onBattery"] as? Bool == false)
        try bus.setActiveProfile("performance")
        let perf = try waitForPower(client, "performance") { $0["profile"] as? String == "performance" }
        #expect(perf["lowPower"] as? Bool == false)
        #expect(daemon.log.contains("following power-profiles-daemon"), "daemon log: \(daemon.log)")
    }

    @Test("--no-power publishes mains and probes nothing")
    func noPower() throws {
        let fake = try FakePowerSupply()
        try fake.battery(capacity: 5)
        let dir = TestPaths.temporaryDirectory()
        let daemon = try DaemonProcess.replaying(["--power-supply-root", fake.root, "--no-power"], in: dir)
        defer { daemon.stop() }
        let (_, hello) = try daemon.greetedClient()
        let power = try #require(hello["power"] as? [String: Any])
        #expect(power["onBattery"] as? Bool == false && power["lowPower"] as? Bool == false)
    }
}
