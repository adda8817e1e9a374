import Foundation
import Synchronization
import Testing
import TiltCore
import TiltTestKit

@testable import TiltPower
@testable import TiltSensors

/// The power probes on fake `power_supply` trees, and the monitor following them (and a private D-Bus).
@Suite(.serialized, .timeLimit(.minutes(1)))
struct PowerProbeTests {
    @Test func mainsThenBatteryThenLow() throws {
        let fake = try FakePowerSupply()
        let probe = PowerSupplyProbe(root: fake.root)
        #expect(probe.read() == .init(onBattery: false, capacity: 100, found: true))
        try fake.battery(capacity: 43)
        #expect(probe.read() == .init(onBattery: true, capacity: 43, found: true))
        try fake.battery(capacity: 12)
        let low = probe.read()
        #expect(low.onBattery && low.capacity == 12)
        try fake.mains(capacity: 12)
        #expect(probe.read() == .init(onBattery: false, capacity: 12, found: true))
    }

    @Test func aPeripheralBatteryDoesNotCount() throws {
        let fake = try FakePowerSupply()
        try fake.addPeripheralBattery(capacity: 5)
        try fake.battery(capacity: 80)
        #expect(PowerSupplyProbe(root: fake.root).read() == .init(onBattery: true, capacity: 80, found: true))
    }

    @Test func nothingFoundMeansMains() {
        let reading = PowerSupplyProbe(root: "/nonexistent/power_supply").read()
        #expect(reading == .init(onBattery: false, capacity: nil, found: false))
        let monitor = PowerMonitor(
            configuration: .init(powerSupplyRoot: "/nonexistent", platformProfilePath: "/nonexistent", bus: .none))
        #expect(monitor.readFiles() == .mains)
    }

    @Test func platformProfileIsRead() throws {
        let fake = try FakePowerSupply()
        try fake.setPlatformProfile("low-power")
        let monitor = PowerMonitor(
            configuration: .init(powerSupplyRoot: fake.root, platformProfilePath: fake.platformProfile, bus: .none))
        let state = monitor.readFiles()
        #expect(state.profile == "low-power" && state.lowPower)
    }

    @Test func theMonitorReportsChangesUntilStopped() throws {
        let fake = try FakePowerSupply()
        let monitor = PowerMonitor(
            configuration: .init(
                powerSupplyRoot: fake.root, platformProfilePath: fake.platformProfile, bus: .none, pollInterval: 0.05))
        let seen = StatesBox()
        let finished = DispatchSemaphore(value: 0)
        let thread = Thread {
            monitor.run { seen.append($0) }
            finished.signal()
        }
        thread.start()
        try seen.waitFor("mains") { $0.last == PowerState(onBattery: false, capacity: 100) }
        try fake.battery(capacity: 43)
        try seen.waitFor("battery at 43 %") { $0.last == PowerState(onBattery: true, capacity: 43) }
        try fake.battery(capacity: 15)
        try seen.waitFor("low battery") { $0.last?.lowPower == true }
        monitor.stop()
        #expect(finished.wait(timeout: .now() + 5) == .success, "run(onChange:) returns after stop()")
        #expect(seen.states.count == 3, "one report per change: \(seen.states)")
    }

    @Test(
        .enabled(if: PrivateBus.isAvailable, "needs dbus-daemon and python3-dbusmock (scripts/bootstrap installs them)")
    )
    func theMonitorFollowsPowerProfilesDaemonOnDBus() throws {
        let bus = try PrivateBus()
        try bus.startPowerProfilesDaemon(profile: "balanced")
        let fake = try FakePowerSupply()
        try fake.setPlatformProfile("performance")
        // A long poll: only the D-Bus signal can bring the change in time.
        let monitor = PowerMonitor(
            configuration: .init(
                powerSupplyRoot: fake.root, platformProfilePath: fake.platformProfile, bus: .address(bus.address),
                pollInterval: 600))
        let seen = StatesBox()
        let thread = Thread { monitor.run { seen.append($0) } }
        thread.start()
        defer { monitor.stop() }
        try seen.waitFor("balanced from the daemon, over platform_profile") { $0.last?.profile == "balanced" }
        try bus.setActiveProfile("power-saver")
        try seen.waitFor("power-saver after PropertiesChanged") { $0.last?.profile == "power-saver" }
        #expect(seen.states.last?.lowPower == true)
        try bus.setActiveProfile("balanced")
        try seen.waitFor("balanced again") { $0.last?.profile == "balanced" }
    }

    @Test(
        .enabled(if: PrivateBus.isAvailable, "needs dbus-daemon and python3-dbusmock (scripts/bootstrap installs them)")
    )
    func aDaemonThatStartsLaterIsFollowed() throws {
        let bus = try PrivateBus()
        let fake = try FakePowerSupply()
        let monitor = PowerMonitor(
            configuration: .init(
                powerSupplyRoot: fake.root, platformProfilePath: nil, bus: .address(bus.address), pollInterval: 600))
        let seen = StatesBox()
        let thread = Thread { monitor.run { seen.append($0) } }
        thread.start()
        defer { monitor.stop() }
        try seen.waitFor("a first state without a profile") { $0.last == PowerState(onBattery: false, capacity: 100) }
        // The name appearing on the bus (NameOwnerChanged) is enough to read the profile, without a poll.
        try bus.startPowerProfilesDaemon(profile: "power-saver")
        try seen.waitFor("power-saver once the daemon is on the bus") { $0.last?.profile == "power-saver" }
    }

    @Test(
        .enabled(if: PrivateBus.isAvailable, "needs dbus-daemon and python3-dbusmock (scripts/bootstrap installs them)")
    )
    func theUPowerNameIsFollowedToo() throws {
        let bus = try PrivateBus()
        try bus.startUPowerProfiles(profile: "power-saver")
        let fake = try FakePowerSupply()
        let monitor = PowerMonitor(
            configuration: .init(
                powerSupplyRoot: fake.root, platformProfilePath: nil, bus: .address(bus.address), pollInterval: 600))
        let seen = StatesBox()
        let thread = Thread { monitor.run { seen.append($0) } }
        thread.start()
        defer { monitor.stop() }
        try seen.waitFor("power-saver under org.freedesktop.UPower.PowerProfiles") {
            $0.last?.profile == "power-saver"
        }
        try bus.setUPowerActiveProfile("performance")
        try seen.waitFor("performance after PropertiesChanged") { $0.last?.profile == "performance" }
    }

    @Test func anUnreachableBusIsNotFatal() throws {
        let fake = try FakePowerSupply()
        let notes = StatesBox()
        let monitor = PowerMonitor(
            configuration: .init(
                powerSupplyRoot: fake.root, platformProfilePath: nil, bus: .address("unix:path=/nonexistent/bus"),
                pollInterval: 0.05)
        ) { notes.note($0) }
        let seen = StatesBox()
        let thread = Thread { monitor.run { seen.append($0) } }
        thread.start()
        defer { monitor.stop() }
        try seen.waitFor("the sysfs state") { $0.last == PowerState(onBattery: false, capacity: 100) }
        #expect(notes.notes.first?.contains("/nonexistent/bus") == true, "notes: \(notes.notes)")
        usleep(300_000)
        #expect(notes.notes.count == 1, "a failing bus is reported once, not at every poll: \(notes.notes)")
    }
}

/// States and notes collected on the monitor's thread.
final class StatesBox: Sendable {
    private let data = Mutex<([PowerState], [String])>(([], []))

    func append(_ s: PowerState) { data.withLock { $0.0.append(s) } }
    func note(_ s: String) { data.withLock { $0.1.append(s) } }
    var states: [PowerState] { data.withLock { $0.0 } }
    var notes: [String] { data.withLock { $0.1 } }

    /// Waits up to 10 s for `condition` on the states so far; fails naming `what` and what was seen.
    func waitFor(_ what: String, _ condition: ([PowerState]) -> Bool) throws {
        let deadline = Deadline(seconds: 10)
        while !condition(states) {
            guard !deadline.hasPassed else { throw TestError("no \(what) within 10 s; saw \(states)") }
            usleep(10_000)
        }
    }
}

/// The power-profiles bus's own error: what failed, and on which bus.
struct PowerProbeErrorTests {
    @Test func aBusThatIsNotThereIsUnreachable() throws {
        let error = try #require(throws: PowerProbeError.self) {
            try PowerProfilesBus(address: "unix:path=/nonexistent/bus")
        }
        #expect(error.kind == .unreachable)
        #expect(error.address == "unix:path=/nonexistent/bus")
        #expect(error.description.hasPrefix("cannot follow power-profiles-daemon on unix:path=/nonexistent/bus: "))
    }
}
