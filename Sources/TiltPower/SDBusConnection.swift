import CSystemd
import TiltCore

#if canImport(Glibc)
    import Glibc
#endif

/// Why an sd-bus call failed: the errno it returned (positive), with the system's text for it.
package struct SDBusError: Error, Sendable {
    /// The errno, positive (sd-bus returns it negated).
    package let errno: Int32

    /// Wraps a negative sd-bus result.
    package init(result: Int32) { errno = -result }

    /// What `strerror` says about ``errno``.
    package var reason: String { String(cString: strerror(errno)) }
}

/// One sd-bus connection: opening it, the slots of its matches and objects, polling and processing it, closing it,
/// and the small message helpers the bus classes share (``PowerProfilesBus``, the daemon's `SensorProxyBus`).
///
/// An sd-bus connection belongs to one thread: create, use and drop this object on the same thread.
package final class SDBusConnection {
    /// The `sd_bus *`, for the messages its owner builds and sends itself.
    package let handle: OpaquePointer
    private var slots: [OpaquePointer] = []
    private var closed = false

    /// Connects to `address` (a D-Bus address such as `unix:path=/run/dbus/system_bus_socket`) as a bus client, or
    /// with `nil` to the system bus (`DBUS_SYSTEM_BUS_ADDRESS`, else the standard socket).
    /// - Throws: ``SDBusError`` with the errno of the step that failed.
    package init(address: String?) throws(SDBusError) {
        var raw: OpaquePointer?
        if let address {
            var r = sd_bus_new(&raw)
            guard r >= 0, let made = raw else { throw SDBusError(result: r) }
            r = sd_bus_set_address(made, address)
            if r >= 0 { r = sd_bus_set_bus_client(made, 1) }
            if r >= 0 { r = sd_bus_start(made) }
            guard r >= 0 else {
                sd_bus_unref(made)
                throw SDBusError(result: r)
            }
        } else {
            let r = sd_bus_open_system(&raw)
            guard r >= 0 else { throw SDBusError(result: r) }
        }
        guard let bus = raw else { throw SDBusError(result: -ENOTCONN) }
        handle = bus
    }

    deinit { close() }

    /// Subscribes `handler` (called with `userdata`) to the messages `rule` matches, until ``close()``.
    package func addMatch(
        _ rule: String, handler: sd_bus_message_handler_t, userdata: UnsafeMutableRawPointer?
    ) throws(SDBusError) {
        var slot: OpaquePointer?
        let r = sd_bus_add_match(handle, &slot, rule, handler, userdata)
        guard r >= 0, let slot else { throw SDBusError(result: r) }
        slots.append(slot)
    }

    /// Registers `handler` (called with `userdata`) for every call to the object at `path`, until ``close()``.
    package func addObject(
        path: String, handler: sd_bus_message_handler_t, userdata: UnsafeMutableRawPointer?
    ) throws(SDBusError) {
        var slot: OpaquePointer?
        let r = sd_bus_add_object(handle, &slot, path, handler, userdata)
        guard r >= 0, let slot else { throw SDBusError(result: r) }
        slots.append(slot)
    }

    /// Drops the matches and objects, sends what is queued and closes the connection; later calls do nothing.
    package func close() {
        guard !closed else { return }
        closed = true
        for slot in slots { sd_bus_slot_unref(slot) }
        slots = []
        sd_bus_flush_close_unref(handle)
    }

    /// The connection's file descriptor, to `poll` on.
    package var fileDescriptor: Int32 { sd_bus_get_fd(handle) }

    /// The `poll` events the connection waits for now.
    package var pollEvents: Int16 {
        let e = sd_bus_get_events(handle)
        return e > 0 ? Int16(truncatingIfNeeded: e) : Int16(POLLIN)
    }

    /// Milliseconds until sd-bus needs ``processAll()`` called anyway (a pending call's timeout), or `nil`.
    package var timeoutMilliseconds: Int? {
        var usec: UInt64 = 0
        guard sd_bus_get_timeout(handle, &usec) >= 0, usec != UInt64.max else { return nil }
        let nowUsec = UInt64(monotonicSeconds() * 1e6)
        return usec <= nowUsec ? 0 : Int((usec - nowUsec + 999) / 1000)
    }

    /// Handles everything that arrived (the handlers run now, on this thread).
    /// - Throws: ``SDBusError`` when the connection broke.
    package func processAll() throws(SDBusError) {
        while true {
            let r = sd_bus_process(handle, nil)
            if r < 0 { throw SDBusError(result: r) }
            if r == 0 { return }
        }
    }

    /// Sends what is queued.
    package func flush() {
        _ = sd_bus_flush(handle)
    }

    /// Calls `member` with string `arguments` and hands the reply to `read`; `nil` when the call cannot be made,
    /// fails, or takes more than 2 s. Never auto-starts the destination.
    package func call<T>(
        destination: String, path: String, interface: String, member: String, arguments: [String],
        read: (OpaquePointer) -> T?
    ) -> T? {
        var call: OpaquePointer?
        guard sd_bus_message_new_method_call(handle, &call, destination, path, interface, member) >= 0, let call
        else { return nil }
        defer { sd_bus_message_unref(call) }
        _ = sd_bus_message_set_auto_start(call, 0)
        for argument in arguments {
            guard sd_bus_message_append_basic(call, Self.code("s"), argument) >= 0 else { return nil }
        }
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        guard sd_bus_call(handle, call, 2_000_000, &error, &reply) >= 0, let reply else { return nil }
        defer { sd_bus_message_unref(reply) }
        return read(reply)
    }

    /// The system's text for a negative sd-bus result.
    package static func describe(_ r: Int32) -> String {
        String(cString: strerror(-r))
    }

    /// A D-Bus type letter (`"s"`, `"v"`, ...) as sd-bus takes it.
    package static func code(_ c: Character) -> CChar { CChar(c.asciiValue!) }

    /// Reads the next string argument of `m`, or `nil` if the next one is not a string.
    package static func readString(_ m: OpaquePointer) -> String? {
        var value: UnsafePointer<CChar>?
        guard sd_bus_message_read_basic(m, code("s"), &value) > 0, let value else { return nil }
        return String(cString: value)
    }
}
