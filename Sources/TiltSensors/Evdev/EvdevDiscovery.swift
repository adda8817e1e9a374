import FoundationEssentials
import TiltCore

/// What sysfs tells about one evdev event node, without opening it.
package struct EvdevDeviceInfo: Codable, Hashable, Sendable {
    /// The event node, e.g. `/dev/input/event7`.
    package var path: String
    /// Its kernel name, e.g. `event7`.
    package var node: String
    /// The input device's `name`, e.g. `Sony Interactive Entertainment DualSense Wireless Controller Motion Sensors`.
    package var name: String
    /// Its `phys` and `uniq` (a controller's Bluetooth address), where the driver sets them.
    package var phys: String?
    package var uniq: String?
    /// Whether it has `INPUT_PROP_ACCELEROMETER`: the kernel's mark of a motion-sensor node.
    package var isAccelerometer: Bool
    /// Which of `ABS_X`, `ABS_Y`, `ABS_Z`, `ABS_RX`, `ABS_RY`, `ABS_RZ` it has, by name (`x`, `y`, `z`, `rx`, …).
    package var axes: [String]

    package init(
        path: String, node: String, name: String, phys: String? = nil, uniq: String? = nil, isAccelerometer: Bool,
        axes: [String]
    ) {
        self.path = path
        self.node = node
        self.name = name
        self.phys = phys
        self.uniq = uniq
        self.isAccelerometer = isAccelerometer
        self.axes = axes
    }

    /// Accelerometer axes: `ABS_X`, `ABS_Y` and `ABS_Z` all there.
    package var hasAccelerometer: Bool { ["x", "y", "z"].allSatisfy(axes.contains) }
    /// Gyroscope axes: `ABS_RX`, `ABS_RY` and `ABS_RZ` all there.
    package var hasGyroscope: Bool { ["rx", "ry", "rz"].allSatisfy(axes.contains) }
    /// A motion sensor tilt reads: the property and the three accelerometer axes.
    package var isMotionSensor: Bool { isAccelerometer && hasAccelerometer }
    /// The kinds it gives, as ``SensorDescription`` names them: `accel`, and `anglvel` with a gyroscope.
    package var kinds: [SensorKind] { hasGyroscope ? [.accelerometer, .gyroscope] : [.accelerometer] }

    /// Why it is not a motion sensor, for messages; `nil` when it is one.
    var notMotionSensorReason: String? {
        if !isAccelerometer { return "it lacks INPUT_PROP_ACCELEROMETER (it is a gamepad, keyboard, mouse, …)" }
        if !hasAccelerometer { return "it has no ABS_X, ABS_Y and ABS_Z accelerometer axes" }
        return nil
    }
}

/// Finds evdev motion sensors through sysfs: `SYSFS/class/input/eventN/device/{properties,name,capabilities/abs}`,
/// each node at `DEV/input/eventN`. Both roots can be moved (tests use a temporary folder), and nothing is opened.
package struct EvdevDiscovery: Sendable, Hashable {
    /// The sysfs mount, normally `/sys`.
    package var sysfsRoot: String
    /// The device folder, normally `/dev`.
    package var devRoot: String

    package init(sysfsRoot: String = "/sys", devRoot: String = "/dev") {
        self.sysfsRoot = sysfsRoot
        self.devRoot = devRoot
    }

    /// `INPUT_PROP_ACCELEROMETER`: bit 6 of `properties`.
    static let accelerometerProperty = 6
    /// The axis names of `ABS_X` … `ABS_RZ` (codes 0 … 5).
    static let axisNames = ["x", "y", "z", "rx", "ry", "rz"]

    /// The folder of event nodes in sysfs: `SYSFS/class/input`.
    package var classFolder: String { sysfsRoot + "/class/input" }

    /// Every event node sysfs lists, motion sensors or not, by node number (`event2` before `event10`).
    package func all() -> [EvdevDeviceInfo] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: classFolder)) ?? []
        let numbered = names.compactMap { name -> (Int, String)? in
            guard name.hasPrefix("event"), let n = Int(name.dropFirst(5)) else { return nil }
            return (n, name)
        }
        return numbered.sorted { $0.0 < $1.0 }.compactMap { info(node: $0.1) }
    }

    /// The motion sensors (``EvdevDeviceInfo/isMotionSensor``), by node number.
    package func motionSensors() -> [EvdevDeviceInfo] { all().filter(\.isMotionSensor) }

    /// The first motion sensor, preferring one named `preferred` (the device read before, come back as another node).
    ///
    /// - Throws: ``EvdevError`` (`noDevice`) saying what was searched and what is there.
    package func first(preferring preferred: String? = nil) throws(EvdevError) -> EvdevDeviceInfo {
        let devices = all()
        let sensors = devices.filter(\.isMotionSensor)
        if let preferred, let same = sensors.first(where: { $0.name == preferred }) { return same }
        guard let first = sensors.first else {
            throw .noDevice(searched: classFolder, others: devices.map { "\($0.node) \($0.name)" })
        }
        return first
    }

    /// What sysfs says about the node at `path` (`DEV/input/eventN`, or a link to one such as
    /// `/dev/input/by-id/…-event-joystick`).
    ///
    /// - Throws: ``EvdevError``: `missing` when nothing is at `path`, `notMotionSensor` when it is no event node or
    ///   not a motion sensor.
    package func describe(path: String) throws(EvdevError) -> EvdevDeviceInfo {
        guard FileManager.default.fileExists(atPath: path) else { throw .missing(path: path) }
        let resolved = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? path
        let node = String(resolved.split(separator: "/").last ?? "")
        guard node.hasPrefix("event"), Int(node.dropFirst(5)) != nil, var info = info(node: node) else {
            throw .notMotionSensor(
                path: path, name: nil, why: "it is not an evdev event node (no \(classFolder)/\(node))")
        }
        if let why = info.notMotionSensorReason { throw .notMotionSensor(path: path, name: info.name, why: why) }
        info.path = path
        return info
    }

    /// The node `eventN` as sysfs describes it; `nil` when it has no `device` folder.
    func info(node: String) -> EvdevDeviceInfo? {
        let device = classFolder + "/" + node + "/device"
        func read(_ file: String) -> String? {
            guard let data = FileManager.default.contents(atPath: device + "/" + file) else { return nil }
            let text = String(decoding: data, as: UTF8.self).trimmingIIOWhitespace()
            return text.isEmpty ? nil : text
        }
        guard let name = read("name") ?? (FileManager.default.fileExists(atPath: device) ? "" : nil) else {
            return nil
        }
        let properties = read("properties").map(Self.bits) ?? []
        let abs = read("capabilities/abs").map(Self.bits) ?? []
        let axes = Self.axisNames.enumerated().filter { abs.contains($0.offset) }.map(\.element)
        return EvdevDeviceInfo(
            path: devRoot + "/input/" + node, node: node, name: name, phys: read("phys"), uniq: read("uniq"),
            isAccelerometer: properties.contains(Self.accelerometerProperty), axes: axes)
    }

    /// The bits set in a sysfs bitmap: hexadecimal words separated by spaces, the most significant first, each a
    /// kernel `long`. Words are counted as 64 bits, exact on 64-bit kernels; the bits asked for here (property 6,
    /// `ABS` codes 0 … 5) are in the last word on any kernel.
    static func bits(_ text: String) -> Set<Int> {
        var set = Set<Int>()
        for (index, word) in text.split(separator: " ").reversed().enumerated() {
            guard let value = UInt64(word, radix: 16) else { continue }
            for bit in 0..<64 where value & (1 << UInt64(bit)) != 0 { set.insert(index * 64 + bit) }
        }
        return set
    }
}
