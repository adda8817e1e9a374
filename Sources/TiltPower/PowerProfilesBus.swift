import CSystemd

/// power-profiles-daemon's `ActiveProfile`, read and followed over D-Bus with sd-bus.
///
/// The daemon is known under two names: `org.freedesktop.UPower.PowerProfiles` (object
/// `/org/freedesktop/UPower/PowerProfiles`, newer releases) and `net.hadess.PowerProfiles` (object
/// `/net/hadess/PowerProfiles`). Both are asked, the first answer wins. The connection subscribes to
/// `PropertiesChanged` on both objects and to the names' owner changes, so a change wakes the caller's `poll` on
/// ``fileDescriptor``; the caller then calls ``process()`` and, if it returns `true`, reads ``activeProfile()`` again.
/// Reads never start the daemon (auto-start is off): a machine without it simply has no profile.
///
/// An sd-bus connection belongs to one thread: create, use and drop this object on the same thread.
final class PowerProfilesBus {
    /// One way to reach power-profiles-daemon.
    struct Endpoint: Sendable {
        var name: String
        var path: String
        var interface: String
    }

    static let endpoints = [
        Endpoint(
            name: "org.freedesktop.UPower.PowerProfiles", path: "/org/freedesktop/UPower/PowerProfiles",
            interface: "org.freedesktop.UPower.PowerProfiles"),
        Endpoint(
            name: "net.hadess.PowerProfiles", path: "/net/hadess/PowerProfiles", interface: "net.hadess.PowerProfiles"),
    ]

    private let connection: SDBusConnection
    /// Set by the signal handlers, cleared by ``process()``.
    private let changed: UnsafeMutablePointer<Bool>
    /// Where the connection goes, for messages.
    let description: String

    /// Connects to `address` (a D-Bus address such as `unix:path=/run/dbus/system_bus_socket`), or with `nil` to
    /// the system bus (`DBUS_SYSTEM_BUS_ADDRESS`, else the standard socket), and subscribes to profile changes.
    /// - Throws: ``PowerProbeError`` when the bus cannot be reached or refuses the subscription.
    init(address: String?) throws(PowerProbeError) {
        let target = address ?? "the system bus"
        do {
            connection = try SDBusConnection(address: address)
        } catch {
            throw PowerProbeError(.unreachable, address: target, reason: error.reason)
        }
        description = target
        changed = .allocate(capacity: 1)
        changed.initialize(to: false)

        let handler: sd_bus_message_handler_t = { _, userdata, _ in
            userdata?.assumingMemoryBound(to: Bool.self).pointee = true
            return 0
        }
        var rules: [String] = []
        for e in Self.endpoints {
            rules.append(
                "type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',"
                    + "path='\(e.path)',arg0='\(e.interface)'")
            rules.append(
                "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',"
                    + "member='NameOwnerChanged',arg0='\(e.name)'")
        }
        for rule in rules {
            do {
                try connection.addMatch(rule, handler: handler, userdata: UnsafeMutableRawPointer(changed))
            } catch {
                connection.close()
                throw PowerProbeError(
                    .subscriptionRefused, address: target, reason: "cannot subscribe (\(rule)): \(error.reason)")
            }
        }
    }

    deinit {
        // The handlers write to `changed`: close before freeing it.
        connection.close()
        changed.deinitialize(count: 1)
        changed.deallocate()
    }

    /// The connection's file descriptor, to `poll` on.
    var fileDescriptor: Int32 { connection.fileDescriptor }

    /// The `poll` events the connection waits for now.
    var pollEvents: Int16 { connection.pollEvents }

    /// Milliseconds until sd-bus needs ``process()`` called anyway (a pending call's timeout), or `nil`.
    var timeoutMilliseconds: Int? { connection.timeoutMilliseconds }

    /// Handles everything that arrived. Returns whether a profile may have changed since the last call.
    /// - Throws: ``PowerProbeError`` when the connection broke (the caller may reconnect later).
    func process() throws(PowerProbeError) -> Bool {
        do {
            try connection.processAll()
        } catch {
            throw PowerProbeError(.connectionLost, address: description, reason: "connection lost: \(error.reason)")
        }
        defer { changed.pointee = false }
        return changed.pointee
    }

    /// The active profile (`power-saver`, `balanced`, `performance`), or `nil` if no power-profiles-daemon answers.
    func activeProfile() -> String? {
        for e in Self.endpoints {
            if let value = getString(e, property: "ActiveProfile") { return value }
        }
        return nil
    }

    /// `org.freedesktop.DBus.Properties.Get(interface, property)` as a string, without auto-starting the service.
    private func getString(_ e: Endpoint, property: String) -> String? {
        connection.call(
            destination: e.name, path: e.path, interface: "org.freedesktop.DBus.Properties", member: "Get",
            arguments: [e.interface, property]
        ) { reply in
            guard sd_bus_message_enter_container(reply, SDBusConnection.code("v"), "s") > 0,
                let text = SDBusConnection.readString(reply)
            else { return nil }
            return text.isEmpty ? nil : text
        }
    }
}
