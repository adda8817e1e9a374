import CSystemd
import FoundationEssentials
import TiltCore
import TiltPower
import TiltSensors
import TiltWire

#if canImport(Glibc)
    import Glibc
#endif

/// `net.hadess.SensorProxy` served on a D-Bus with sd-bus: the object, its properties and methods, the callers'
/// claims, and `PropertiesChanged`.
///
/// The object is registered with `sd_bus_add_object`, whose one callback answers every call to the path (the
/// interface's methods, `org.freedesktop.DBus.Properties` and `Introspectable`); sd-bus's vtable macros have no Swift
/// form. Claims are kept per caller's unique name, one each as iio-sensor-proxy keeps them (a second claim from the
/// same caller changes nothing, one release ends it); `NameOwnerChanged` tells when a caller is gone, and its claim
/// goes with it. An sd-bus connection belongs to one thread: create, use and drop this object on the same thread.
final class SensorProxyBus {
    static let name = "net.hadess.SensorProxy"
    static let path = "/net/hadess/SensorProxy"
    static let interface = "net.hadess.SensorProxy"
    /// The compass object, which iio-sensor-proxy keeps for GeoClue: served with `HasCompass` false.
    static let compassPath = "/net/hadess/SensorProxy/Compass"
    static let compassInterface = "net.hadess.SensorProxy.Compass"

    private let connection: SDBusConnection
    /// The `sd_bus *`, for the messages built here.
    private var bus: OpaquePointer { connection.handle }
    /// Which bus, for messages: `the system bus` or the address given.
    let description: String
    /// The unique bus names that claim the accelerometer.
    private(set) var claims: Set<String> = []
    /// What `AccelerometerOrientation` and `AccelerometerTilt` say.
    private(set) var orientation: WireOrientation
    /// Called when the number of callers holding a claim changes.
    var onClaimsChanged: (Int) -> Void = { _ in }

    /// Connects to `address` (`nil`: the system bus, which honours `DBUS_SYSTEM_BUS_ADDRESS`), registers the object
    /// and requests the name without queueing.
    ///
    /// - Throws: ``DaemonError`` when the bus cannot be reached, or the name is owned already (naming its owner).
    init(address: String?, orientation: WireOrientation) throws(DaemonError) {
        self.orientation = orientation
        let target = address.map { "the bus \($0)" } ?? "the system bus"
        description = target
        do {
            connection = try SDBusConnection(address: address)
        } catch {
            throw Self.failure(target, error)
        }
        let me = Unmanaged.passUnretained(self).toOpaque()

        let objectHandler: sd_bus_message_handler_t = { message, userdata, _ in
            guard let message, let userdata else { return 0 }
            return Unmanaged<SensorProxyBus>.fromOpaque(userdata).takeUnretainedValue().handleCall(message)
        }
        let ownerHandler: sd_bus_message_handler_t = { message, userdata, _ in
            guard let message, let userdata else { return 0 }
            Unmanaged<SensorProxyBus>.fromOpaque(userdata).takeUnretainedValue().handleOwnerChange(message)
            return 0
        }
        do {
            for path in [Self.path, Self.compassPath] {
                try connection.addObject(path: path, handler: objectHandler, userdata: me)
            }
            try connection.addMatch(
                "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',"
                    + "member='NameOwnerChanged'",
                handler: ownerHandler, userdata: me)
        } catch {
            close()
            throw Self.failure(target, error)
        }

        let r = sd_bus_request_name(bus, Self.name, 0)
        if r == -EEXIST {
            let owner = ownerDescription()
            close()
            throw DaemonError(
                .sensorProxy,
                """
                \(Self.name) is already owned on \(target) by \(owner); stop it (systemctl stop iio-sensor-proxy) \
                or run tiltd without --sensor-proxy
                """)
        }
        if r == -EACCES || r == -EPERM {
            close()
            throw DaemonError(
                .sensorProxy,
                """
                \(target) does not let this user own \(Self.name): install dist/net.hadess.SensorProxy.tiltd.conf \
                into /usr/share/dbus-1/system.d (the package does), or run tiltd as the user it allows
                """)
        }
        guard r >= 0 else {
            close()
            throw DaemonError(.sensorProxy, "cannot own \(Self.name) on \(target): \(SDBusConnection.describe(r))")
        }
    }

    /// Gives the name up and closes the connection.
    func close() {
        connection.close()
    }

    deinit { close() }

    /// The connection's file descriptor, to `poll` on.
    var fileDescriptor: Int32 { connection.fileDescriptor }

    /// The `poll` events the connection waits for now.
    var pollEvents: Int16 { connection.pollEvents }

    /// Handles everything that arrived.
    /// - Throws: ``DaemonError`` when the connection broke.
    func process() throws(DaemonError) {
        do {
            try connection.processAll()
        } catch {
            throw DaemonError(.sensorProxy, "lost \(description): \(error.reason)")
        }
    }

    /// Sends what is queued.
    func flush() {
        connection.flush()
    }

    /// Publishes a new orientation: `PropertiesChanged` for what changed.
    func setOrientation(_ new: WireOrientation) {
        var changed: [(String, Value)] = []
        if new.orientation != orientation.orientation {
            changed.append(("AccelerometerOrientation", .string(new.orientation)))
        }
        if new.tilt != orientation.tilt { changed.append(("AccelerometerTilt", .string(new.tilt))) }
        orientation = new
        guard !changed.isEmpty else { return }
        var signal: OpaquePointer?
        guard
            sd_bus_message_new_signal(bus, &signal, Self.path, "org.freedesktop.DBus.Properties", "PropertiesChanged")
                >= 0, let signal
        else { return }
        defer { sd_bus_message_unref(signal) }
        guard Self.append(string: Self.interface, to: signal), Self.append(dictionary: changed, to: signal),
            sd_bus_message_open_container(signal, Self.code("a"), "s") >= 0,
            sd_bus_message_close_container(signal) >= 0
        else { return }
        _ = sd_bus_send(bus, signal, nil)
    }

    // MARK: Answering calls

    /// A property's value.
    enum Value {
        case bool(Bool)
        case string(String)
        case double(Double)

        /// Its D-Bus type signature.
        var signature: String {
            switch self {
            case .bool: "b"
            case .string: "s"
            case .double: "d"
            }
        }
    }

    /// The properties, in introspection order.
    private var properties: [(String, Value)] {
        [
            ("HasAccelerometer", .bool(true)),
            ("AccelerometerOrientation", .string(orientation.orientation)),
            ("AccelerometerTilt", .string(orientation.tilt)),
            ("HasAmbientLight", .bool(false)),
            ("LightLevelUnit", .string("lux")),
            ("LightLevel", .double(0)),
            ("HasProximity", .bool(false)),
            ("ProximityNear", .bool(false)),
        ]
    }

    private func handleCall(_ m: OpaquePointer) -> Int32 {
        guard sd_bus_message_is_method_call(m, nil, nil) > 0,
            let memberText = sd_bus_message_get_member(m)
        else { return 0 }
        let member = String(cString: memberText)
        let interface = sd_bus_message_get_interface(m).map { String(cString: $0) }
        let sender = sd_bus_message_get_sender(m).map { String(cString: $0) } ?? ""
        let onCompass = sd_bus_message_get_path(m).map { String(cString: $0) } == Self.compassPath
        let (served, values) =
            onCompass
            ? (Self.compassInterface, [("HasCompass", Value.bool(false)), ("CompassHeading", .double(-1))])
            : (Self.interface, properties)
        switch (interface, member) {
        case ("org.freedesktop.DBus.Introspectable", "Introspect"):
            let xml = Self.introspection(onCompass: onCompass, served: served, values: values)
            return reply(to: m) { Self.append(string: xml, to: $0) }
        case ("org.freedesktop.DBus.Properties", "GetAll"):
            guard let asked = Self.readString(m) else { return 0 }
            return reply(to: m) { Self.append(dictionary: asked == served ? values : [], to: $0) }
        case ("org.freedesktop.DBus.Properties", "Get"):
            guard Self.readString(m) == served, let property = Self.readString(m),
                let value = values.first(where: { $0.0 == property })?.1
            else {
                return error(m, "org.freedesktop.DBus.Error.UnknownProperty", "no such property on \(served)")
            }
            return reply(to: m) { Self.append(variant: value, to: $0) }
        case ("org.freedesktop.DBus.Properties", "Set"):
            return error(m, "org.freedesktop.DBus.Error.PropertyReadOnly", "the properties are read-only")
        case (Self.compassInterface, "ClaimCompass"), (Self.compassInterface, "ReleaseCompass"):
            return onCompass ? reply(to: m) { _ in true } : 0
        case _ where onCompass:
            return 0
        case (Self.interface, "ClaimAccelerometer"), (nil, "ClaimAccelerometer"):
            if claims.insert(sender).inserted { onClaimsChanged(claims.count) }
            return reply(to: m) { _ in true }
        case (Self.interface, "ReleaseAccelerometer"), (nil, "ReleaseAccelerometer"):
            release(sender)
            return reply(to: m) { _ in true }
        case (Self.interface, "ClaimLight"), (Self.interface, "ReleaseLight"), (Self.interface, "ClaimProximity"),
            (Self.interface, "ReleaseProximity"):
            // No such sensor here (HasAmbientLight and HasProximity are false); claiming it is not an error, as
            // with iio-sensor-proxy, and desktop clients claim everything at once.
            return reply(to: m) { _ in true }
        default:
            return 0
        }
    }

    /// Drops the claim of `caller`, if it has one.
    private func release(_ caller: String) {
        if claims.remove(caller) != nil { onClaimsChanged(claims.count) }
    }

    private func handleOwnerChange(_ m: OpaquePointer) {
        guard let name = Self.readString(m), let _ = Self.readString(m), let newOwner = Self.readString(m),
            newOwner.isEmpty
        else { return }
        release(name)
    }

    /// Sends a method return whose arguments `fill` appends; 1 (handled), or a negative error.
    private func reply(to m: OpaquePointer, _ fill: (OpaquePointer) -> Bool) -> Int32 {
        var answer: OpaquePointer?
        var r = sd_bus_message_new_method_return(m, &answer)
        guard r >= 0, let answer else { return r }
        defer { sd_bus_message_unref(answer) }
        guard fill(answer) else { return -EINVAL }
        r = sd_bus_send(bus, answer, nil)
        return r < 0 ? r : 1
    }

    private func error(_ m: OpaquePointer, _ name: String, _ text: String) -> Int32 {
        var e = sd_bus_error()
        defer { sd_bus_error_free(&e) }
        _ = sd_bus_error_set(&e, name, text)
        let r = sd_bus_reply_method_error(m, &e)
        return r < 0 ? r : 1
    }

    // MARK: Messages

    private static func code(_ c: Character) -> CChar { SDBusConnection.code(c) }

    private static func readString(_ m: OpaquePointer) -> String? { SDBusConnection.readString(m) }

    private static func append(string: String, to m: OpaquePointer) -> Bool {
        sd_bus_message_append_basic(m, code("s"), string) >= 0
    }

    private static func append(variant value: Value, to m: OpaquePointer) -> Bool {
        let ok: Bool
        switch value {
        case .bool(let b):
            var v: Int32 = b ? 1 : 0
            ok =
                sd_bus_message_open_container(m, code("v"), "b") >= 0
                && sd_bus_message_append_basic(m, code("b"), &v) >= 0
        case .string(let s):
            ok = sd_bus_message_open_container(m, code("v"), "s") >= 0 && append(string: s, to: m)
        case .double(let d):
            var v = d
            ok =
                sd_bus_message_open_container(m, code("v"), "d") >= 0
                && sd_bus_message_append_basic(m, code("d"), &v) >= 0
        }
        return ok && sd_bus_message_close_container(m) >= 0
    }

    /// An `a{sv}`.
    private static func append(dictionary: [(String, Value)], to m: OpaquePointer) -> Bool {
        guard sd_bus_message_open_container(m, code("a"), "{sv}") >= 0 else { return false }
        for (key, value) in dictionary {
            guard sd_bus_message_open_container(m, code("e"), "sv") >= 0, append(string: key, to: m),
                append(variant: value, to: m), sd_bus_message_close_container(m) >= 0
            else { return false }
        }
        return sd_bus_message_close_container(m) >= 0
    }

    /// `PID N (COMMAND)` of the name's owner, from the bus and /proc, or `another program` if the bus won't say.
    private func ownerDescription() -> String {
        let pid = connection.call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "GetConnectionUnixProcessID", arguments: [Self.name]
        ) { reply -> UInt32? in
            var pid: UInt32 = 0
            return sd_bus_message_read_basic(reply, Self.code("u"), &pid) > 0 ? pid : nil
        }
        guard let pid else { return "another program" }
        return "PID \(pid) (\(processCommand(pid: Int(pid)) ?? "unknown command"))"
    }

    private static func failure(_ target: String, _ error: SDBusError) -> DaemonError {
        DaemonError(
            .sensorProxy,
            "cannot connect to \(target) for --sensor-proxy: \(error.reason); start the D-Bus daemon "
                + "(systemctl start dbus), name a running bus with --system-bus ADDRESS, or run tiltd without "
                + "--sensor-proxy")
    }

    /// The introspection documents' first lines.
    private static let doctype = """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
        "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">

        """

    /// The standard interfaces the main object also answers, as introspection lists them.
    private static let standardInterfaces = """
          <interface name="org.freedesktop.DBus.Properties">
            <method name="Get"><arg type="s" direction="in"/><arg type="s" direction="in"/>\
        <arg type="v" direction="out"/></method>
            <method name="GetAll"><arg type="s" direction="in"/><arg type="a{sv}" direction="out"/></method>
            <method name="Set"><arg type="s" direction="in"/><arg type="s" direction="in"/>\
        <arg type="v" direction="in"/></method>
            <signal name="PropertiesChanged"><arg type="s"/><arg type="a{sv}"/><arg type="as"/></signal>
          </interface>
          <interface name="org.freedesktop.DBus.Introspectable">
            <method name="Introspect"><arg type="s" direction="out"/></method>
          </interface>

        """

    /// What `Introspect` answers: the served interface's properties (from the same list `Get` and `GetAll` answer
    /// from) and its claim and release methods; on the main object also the standard interfaces and the compass
    /// child.
    static func introspection(onCompass: Bool, served: String, values: [(String, Value)]) -> String {
        let methods =
            onCompass
            ? ["ClaimCompass", "ReleaseCompass"]
            : ["Accelerometer", "Light", "Proximity"].flatMap { ["Claim\($0)", "Release\($0)"] }
        var xml = doctype + "<node>\n  <interface name=\"\(served)\">\n"
        for (name, value) in values {
            xml += "    <property name=\"\(name)\" type=\"\(value.signature)\" access=\"read\"/>\n"
        }
        for method in methods { xml += "    <method name=\"\(method)\"/>\n" }
        xml += "  </interface>\n"
        if !onCompass { xml += standardInterfaces + "  <node name=\"Compass\"/>\n" }
        return xml + "</node>"
    }
}
