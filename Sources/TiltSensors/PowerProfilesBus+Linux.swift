import CSystemd
import TiltCore

#if canImport(Glibc)
    import Glibc
#endif

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

    private let bus: OpaquePointer
    private var slots: [OpaquePointer] = []
    /// Set by the signal handlers, cleared by ``process()``.
    private let changed: UnsafeMutablePointer<Bool>
    /// Where the connection goes, for messages.
    let description: String

    /// Connects to `address` (a D-Bus address such as `unix:path=/run/dbus/system_bus_socket`), or with `nil` to
    /// the system bus (`DBUS_SYSTEM_BUS_ADDRESS`, else the standard socket), and subscribes to profile changes.
    /// - Throws: ``PowerProbeError`` when the bus cannot be reached or refuses the subscription.
    init(address: String?) throws(PowerProbeError) {
        var raw: OpaquePointer?
        let target = address ?? "the system bus"
        if let address {
            var r = sd_bus_new(&raw)
            guard r >= 0, let made = raw else { throw PowerProbeError.bus(target, Self.describe(r)) }
            r = sd_bus_set_address(made, address)
            if r >= 0 { r = sd_bus_set_bus_client(made, 1) }
            if r >= 0 { r = sd_bus_start(made) }
            guard r >= 0 else {
                sd_bus_unref(made)
                throw PowerProbeError.bus(target, Self.describe(r))
            }
        } else {
            let r = sd_bus_open_system(&raw)
            guard r >= 0, raw != nil else { throw PowerProbeError.bus(target, Self.describe(r)) }
        }
        guard let bus = raw else { throw PowerProbeError.bus(target, "no connection") }
        self.bus = bus
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
            var slot: OpaquePointer?
            let r = sd_bus_add_match(bus, &slot, rule, handler, UnsafeMutableRawPointer(changed))
            guard r >= 0, let slot else {
                close()
                throw PowerProbeError.bus(target, "cannot subscribe (\(rule)): \(Self.describe(r))")
            }
            slots.append(slot)
        }
    }

    private var closed = false

    private func close() {
        guard !closed else { return }
        closed = true
        for slot in slots { sd_bus_slot_unref(slot) }
        slots = []
        sd_bus_flush_close_unref(bus)
        changed.deinitialize(count: 1)
        changed.deallocate()
    }

    deinit { close() }

    /// The connection's file descriptor, to `poll` on.
    var fileDescriptor: Int32 { sd_bus_get_fd(bus) }

    /// The `poll` events the connection waits for now.
    var pollEvents: Int16 {
        let e = sd_bus_get_events(bus)
        return e > 0 ? Int16(truncatingIfNeeded: e) : Int16(POLLIN)
    }

    /// Milliseconds until sd-bus needs ``process()`` called anyway (a pending call's timeout), or `nil`.
    var timeoutMilliseconds: Int? {
        var usec: UInt64 = 0
        guard sd_bus_get_timeout(bus, &usec) >= 0, usec != UInt64.max else { return nil }
        let nowUsec = UInt64(monotonicSeconds() * 1e6)
        return usec <= nowUsec ? 0 : Int((usec - nowUsec + 999) / 1000)
    }

    /// Handles everything that arrived. Returns whether a profile may have changed since the last call.
    /// - Throws: ``PowerProbeError`` when the connection broke (the caller may reconnect later).
    func process() throws(PowerProbeError) -> Bool {
        while true {
            let r = sd_bus_process(bus, nil)
            if r < 0 { throw PowerProbeError.bus(description, "connection lost: \(Self.describe(r))") }
            if r == 0 { break }
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
        var call: OpaquePointer?
        guard
            sd_bus_message_new_method_call(bus, &call, e.name, e.path, "org.freedesktop.DBus.Properties", "Get") >= 0,
            let call
        else { return nil }
        defer { sd_bus_message_unref(call) }
        _ = sd_bus_message_set_auto_start(call, 0)
        let s = CChar(UInt8(ascii: "s"))
        guard sd_bus_message_append_basic(call, s, e.interface) >= 0,
            sd_bus_message_append_basic(call, s, property) >= 0
        else { return nil }
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        guard sd_bus_call(bus, call, 2_000_000, &error, &reply) >= 0, let reply else { return nil }
        defer { sd_bus_message_unref(reply) }
        guard sd_bus_message_enter_container(reply, CChar(UInt8(ascii: "v")), "s") > 0 else { return nil }
        var value: UnsafePointer<CChar>?
        guard sd_bus_message_read_basic(reply, s, &value) > 0, let value else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }

    private static func describe(_ r: Int32) -> String {
        String(cString: strerror(-r))
    }
}
