import Synchronization
import TiltCore

#if canImport(Glibc)
    import Glibc
#endif

/// Follows the system's power state: mains or battery and charge (`/sys/class/power_supply`), the ACPI
/// `platform_profile`, and power-profiles-daemon's `ActiveProfile` over D-Bus.
///
/// ``run(onChange:)`` blocks its thread in `poll(2)`: it wakes when D-Bus says a profile changed, and otherwise
/// only every ``Configuration/pollInterval`` seconds to re-read the sysfs files, which have no change notification
/// of their own. Nothing else runs while idle. A profile from power-profiles-daemon wins over `platform_profile`.
/// Finding nothing at all means mains power with no profile.
package final class PowerMonitor: Sendable {
    /// Where to look.
    package struct Configuration: Sendable, Hashable {
        /// The `power_supply` class folder.
        package var powerSupplyRoot: String
        /// The ACPI platform profile file; `nil` skips it.
        package var platformProfilePath: String?
        /// Which D-Bus to ask power-profiles-daemon on.
        package var bus: Bus
        /// Seconds between re-reads of the sysfs files (and of the profile, in case a signal was missed).
        package var pollInterval: Double

        /// The D-Bus to use.
        package enum Bus: Sendable, Hashable {
            /// The system bus (`DBUS_SYSTEM_BUS_ADDRESS`, else `/run/dbus/system_bus_socket`).
            case system
            /// A bus at this D-Bus address, e.g. `unix:path=/tmp/bus`.
            case address(String)
            /// No D-Bus.
            case none
        }

        /// The standard places, polling every 15 s.
        package init(
            powerSupplyRoot: String = PowerSupplyProbe.defaultRoot,
            platformProfilePath: String? = PowerMonitor.defaultPlatformProfilePath, bus: Bus = .system,
            pollInterval: Double = 15
        ) {
            self.powerSupplyRoot = powerSupplyRoot
            self.platformProfilePath = platformProfilePath
            self.bus = bus
            self.pollInterval = pollInterval
        }
    }

    /// `/sys/firmware/acpi/platform_profile`.
    package static let defaultPlatformProfilePath = "/sys/firmware/acpi/platform_profile"

    package let configuration: Configuration
    private let log: @Sendable (String) -> Void
    /// The write end of the pipe that wakes ``run(onChange:)`` to stop; the read end is polled.
    private let wake: (read: Int32, write: Int32)
    private let stopped = Atomic<Bool>(false)

    /// Creates a monitor. `log` receives notes worth a log line (a bus that cannot be reached, a profile found).
    package init(configuration: Configuration = .init(), log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.configuration = configuration
        self.log = log
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            for fd in fds {
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                _ = fcntl(fd, F_SETFL, O_NONBLOCK)
            }
        } else {
            fds = [-1, -1]
        }
        wake = (fds[0], fds[1])
    }

    deinit {
        if wake.read >= 0 { close(wake.read) }
        if wake.write >= 0 { close(wake.write) }
    }

    /// The state of the sysfs files and the platform profile now (no D-Bus).
    package func readFiles() -> PowerState {
        let supplies = PowerSupplyProbe(root: configuration.powerSupplyRoot).read()
        let profile = configuration.platformProfilePath.flatMap(PowerSupplyProbe.readAttribute)
        return PowerState(onBattery: supplies.onBattery, capacity: supplies.capacity, profile: profile)
    }

    /// Reads the power state, calls `onChange` with it, and then again at every change, until ``stop()``.
    ///
    /// Blocks the calling thread (give it a thread of its own); `onChange` runs on it. Call it once per monitor.
    package func run(onChange: (PowerState) -> Void) {
        var bus: PowerProfilesBus?
        var busProfile: String?
        var lastBusProblem: String?
        var last: PowerState?
        var nextPoll = 0.0

        func connect() {
            let address: String?
            switch configuration.bus {
            case .none: return
            case .system: address = nil
            case .address(let a): address = a
            }
            do {
                let opened = try PowerProfilesBus(address: address)
                bus = opened
                busProfile = opened.activeProfile()
                lastBusProblem = nil
                log("following power-profiles-daemon on \(opened.description): profile \(busProfile ?? "none")")
            } catch {
                if lastBusProblem != error.description { log(error.description) }
                lastBusProblem = error.description
            }
        }

        connect()
        while !stopped.load(ordering: .acquiring) {
            let now = monotonicSeconds()
            if now >= nextPoll {
                if bus == nil { connect() } else { busProfile = bus?.activeProfile() }
                nextPoll = now + max(configuration.pollInterval, 0.1)
            }
            var state = readFiles()
            if let busProfile { state.profile = busProfile }
            if state != last {
                last = state
                onChange(state)
            }
            // Sleep until the bus has something, the poll is due, or stop() writes to the pipe.
            var fds = [pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
            if let bus { fds.append(pollfd(fd: bus.fileDescriptor, events: bus.pollEvents, revents: 0)) }
            var timeout = Int(max(0, (nextPoll - monotonicSeconds()) * 1000).rounded(.up))
            if let busTimeout = bus?.timeoutMilliseconds { timeout = min(timeout, busTimeout) }
            let r = poll(&fds, nfds_t(fds.count), Int32(clamping: timeout))
            if r < 0 && errno != EINTR { break }
            if stopped.load(ordering: .acquiring) { break }
            if let current = bus {
                do {
                    if try current.process() { busProfile = current.activeProfile() }
                } catch {
                    log(error.description)
                    bus = nil
                    busProfile = nil
                }
            }
        }
    }

    /// Makes ``run(onChange:)`` return soon. Safe from any thread, more than once.
    package func stop() {
        stopped.store(true, ordering: .releasing)
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
    }

}
