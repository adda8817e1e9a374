import Foundation

/// A fake `/sys/class/input` and `/dev/input` for the evdev discovery: `ROOT/sys/class/input/eventN/device/…` as the
/// kernel lays it out (`name`, `properties`, `capabilities/abs`, …) and `ROOT/dev/input/eventN` as plain files.
///
/// ``EvdevDiscovery`` takes both roots, so most tests read the folder directly. ``run(_:environment:)`` runs a
/// program in a private user and mount namespace (`unshare -rm`, as ``FakeIIOTree`` does) where `ROOT/sys/class/input`
/// is bind-mounted over `/sys/class/input` and `ROOT/dev` over `/dev`, for `tilt sensors` and `tiltd --check`. The
/// nodes are plain files: libevdev cannot read them, which is what a test of a node that is not an evdev device wants.
public final class FakeInputTree: Sendable {
    /// The temporary folder holding `sys/` and `dev/`.
    public let root: URL

    /// Creates an empty tree in a fresh temporary folder.
    public init() throws {
        root = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(
            "tilt-input-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: classFolder, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("dev/input"), withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    /// The sysfs root to give ``EvdevDiscovery``.
    public var sysfsRoot: String { root.appendingPathComponent("sys").path }
    /// The device root to give ``EvdevDiscovery``.
    public var devRoot: String { root.appendingPathComponent("dev").path }
    /// `ROOT/sys/class/input`.
    public var classFolder: URL { root.appendingPathComponent("sys/class/input") }
    /// The node file standing for `/dev/input/eventN`.
    public func nodePath(_ n: Int) -> String { root.appendingPathComponent("dev/input/event\(n)").path }

    /// The `properties` of a motion sensor: `INPUT_PROP_ACCELEROMETER` (bit 6).
    public static let accelerometerProperties = "40"
    /// `capabilities/abs` with `ABS_X` … `ABS_RZ` (bits 0 … 5); a DualSense's motion node.
    public static let sixAxes = "3f"
    /// `capabilities/abs` with `ABS_X`, `ABS_Y`, `ABS_Z` only (lis3lv02d).
    public static let threeAxes = "7"

    /// Adds `eventN` of an input device named `name` with the given `properties` and `capabilities/abs` bitmaps (hex
    /// words as the kernel prints them), and its node file. `eventN/device` is a folder here, not sysfs's link to the
    /// input device, so that it still resolves where the tree is mounted over `/sys/class/input`.
    public func addDevice(
        _ n: Int, name: String, properties: String = "0", abs: String = "0", uniq: String? = nil
    ) throws {
        let device = classFolder.appendingPathComponent("event\(n)/device")
        try FileManager.default.createDirectory(
            at: device.appendingPathComponent("capabilities"), withIntermediateDirectories: true)
        func write(_ relative: String, _ value: String) throws {
            try Data((value + "\n").utf8).write(to: device.appendingPathComponent(relative))
        }
        try write("name", name)
        try write("properties", properties)
        try write("capabilities/abs", abs)
        try write("phys", "usb-0000:00:14.0-1/input0")
        if let uniq { try write("uniq", uniq) }
        try Data().write(to: URL(fileURLWithPath: nodePath(n)))
    }

    /// Runs `arguments` (an executable path and its arguments) in the namespace, to completion.
    public func run(_ arguments: [String], environment: [String: String] = [:]) throws -> ChildProcess {
        let script =
            "mount --bind \"$0/sys/class/input\" /sys/class/input && mount --bind \"$0/dev\" /dev && exec \"$@\""
        let started = try PrivateNamespace.start(
            script: script, root: root, arguments: arguments, environment: environment)
        return try ChildProcess.collect(started.process, stdout: started.stdout, stderr: started.stderr)
    }
}
