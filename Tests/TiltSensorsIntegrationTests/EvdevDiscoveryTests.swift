import Foundation
import Testing
import TiltCore
import TiltTestKit

@testable import TiltEvdev
@testable import TiltSensors

/// Finding evdev motion sensors on a fake `/sys/class/input` tree (``FakeInputTree``; the discovery's roots are
/// parameters), and the errors of a source that cannot find or read one.
@Suite struct EvdevDiscoveryTests {
    static let dualSense = "Sony Interactive Entertainment DualSense Wireless Controller Motion Sensors"

    /// A DualSense (its gamepad node and its motion node), a keyboard, and lis3lv02d, numbered so that a plain
    /// string sort would put event10 first.
    static func machine() throws -> FakeInputTree {
        let tree = try FakeInputTree()
        try tree.addDevice(10, name: "ST LIS3LV02DL Accelerometer", properties: "40", abs: FakeInputTree.threeAxes)
        try tree.addDevice(2, name: "AT Translated Set 2 keyboard")
        try tree.addDevice(
            3, name: "Sony Interactive Entertainment DualSense Wireless Controller", abs: "3003f")
        try tree.addDevice(
            4, name: dualSense, properties: FakeInputTree.accelerometerProperties, abs: FakeInputTree.sixAxes,
            uniq: "a0:ab:51:00:00:01")
        return tree
    }

    static func discovery(_ tree: FakeInputTree) -> EvdevDiscovery {
        EvdevDiscovery(sysfsRoot: tree.sysfsRoot, devRoot: tree.devRoot)
    }

    @Test("every event node is listed by number; the motion sensors are those with the property and ABS_X…Z")
    func listsByNumberAndPicksMotionSensors() throws {
        let tree = try Self.machine()
        let discovery = Self.discovery(tree)
        #expect(discovery.all().map(\.node) == ["event2", "event3", "event4", "event10"])
        let sensors = discovery.motionSensors()
        #expect(sensors.map(\.node) == ["event4", "event10"])
        let pad = try #require(sensors.first)
        #expect(pad.path == tree.devRoot + "/input/event4")
        #expect(pad.name == Self.dualSense && pad.uniq == "a0:ab:51:00:00:01")
        #expect(
            pad.axes == ["x", "y", "z", "rx", "ry", "rz"] && pad.hasGyroscope && pad.kinds == ["accel", "anglvel"])
        let laptop = sensors[1]
        #expect(laptop.axes == ["x", "y", "z"] && !laptop.hasGyroscope && laptop.kinds == ["accel"])
        #expect(EvdevMount(hasGyroscope: pad.hasGyroscope) == .controller)
        #expect(EvdevMount(hasGyroscope: laptop.hasGyroscope) == .identity)
        // The gamepad node has axes but not the property: not a motion sensor.
        #expect(discovery.all()[1].axes == ["x", "y", "z", "rx", "ry", "rz"] && !discovery.all()[1].isMotionSensor)
        #expect(try discovery.first().node == "event4")
        #expect(try discovery.first(preferring: "ST LIS3LV02DL Accelerometer").node == "event10")
        #expect(try discovery.first(preferring: "gone").node == "event4")
    }

    @Test("sysfs bitmaps: hex words, the most significant first")
    func bitmaps() {
        #expect(EvdevDiscovery.bits("40") == [6])
        #expect(EvdevDiscovery.bits("3f") == [0, 1, 2, 3, 4, 5])
        #expect(EvdevDiscovery.bits("1 0") == [64])
        #expect(EvdevDiscovery.bits("8000 41") == [0, 6, 79])
        #expect(EvdevDiscovery.bits("0").isEmpty && EvdevDiscovery.bits("").isEmpty)
    }

    @Test("the source describes the device it will read, names itself after it, and opens nothing yet")
    func sourceDescribesTheDevice() throws {
        let tree = try Self.machine()
        let auto = try EvdevMotionSource(configuration: .init(discovery: Self.discovery(tree)))
        #expect(auto.name == "evdev:" + Self.dualSense)
        #expect(
            auto.sensors == [
                SensorDescription(
                    name: Self.dualSense, kinds: ["accel", "anglvel"], location: tree.devRoot + "/input/event4",
                    rateHz: nil, mode: "evdev")
            ])
        let path = tree.nodePath(10)
        let fixed = try EvdevMotionSource(configuration: .init(path: path, discovery: Self.discovery(tree)))
        #expect(fixed.device.path == path && fixed.sensors.first?.kinds == ["accel"])
    }

    @Test("a node that is not a motion sensor is refused, saying what it is and where to find the right one")
    func notAMotionSensor() throws {
        let tree = try Self.machine()
        let error = #expect(throws: EvdevError.self) {
            try EvdevMotionSource(configuration: .init(path: tree.nodePath(3), discovery: Self.discovery(tree)))
        }
        #expect(error?.kind == .notMotionSensor)
        let text = try #require(error?.description)
        #expect(text.contains(tree.nodePath(3)) && text.contains("DualSense Wireless Controller)"), "\(text)")
        #expect(text.contains("INPUT_PROP_ACCELEROMETER") && text.contains("Motion Sensors"), "\(text)")
        #expect(text.contains("tilt sensors"), "\(text)")
        #expect(error?.isTransient == false)
        // A file that is no event node at all.
        let other = tree.root.appendingPathComponent("notes.txt").path
        try Data("x".utf8).write(to: URL(fileURLWithPath: other))
        let notNode = #expect(throws: EvdevError.self) {
            try EvdevMotionSource(configuration: .init(path: other, discovery: Self.discovery(tree)))
        }
        #expect(notNode?.kind == .notMotionSensor && notNode?.description.contains("not an evdev event node") == true)
    }

    @Test("a missing path says so and how to find the node")
    func missingPath() throws {
        let tree = try Self.machine()
        let error = #expect(throws: EvdevError.self) {
            try EvdevMotionSource(configuration: .init(path: tree.nodePath(9), discovery: Self.discovery(tree)))
        }
        #expect(error?.kind == .missing && error?.isTransient == true)
        #expect(error?.description.contains("\(tree.nodePath(9)) does not exist") == true)
        #expect(error?.description.contains("tilt sensors") == true)
    }

    @Test("auto with no motion sensor says what was searched, what is there and what to do")
    func noDeviceFound() throws {
        let tree = try FakeInputTree()
        try tree.addDevice(0, name: "Power Button")
        let error = #expect(throws: EvdevError.self) {
            try EvdevMotionSource(configuration: .init(discovery: Self.discovery(tree)))
        }
        #expect(error?.kind == .noDevice)
        let text = try #require(error?.description)
        #expect(
            text.hasPrefix("no evdev motion sensor (INPUT_PROP_ACCELEROMETER) found in \(tree.sysfsRoot)/class/input"))
        #expect(text.contains("event0 Power Button") && text.contains("connect a controller"), "\(text)")
        #expect(text.contains("--evdev /dev/input/eventN"), "\(text)")
        let empty = try FakeInputTree()
        let none = #expect(throws: EvdevError.self) {
            try EvdevMotionSource(configuration: .init(discovery: Self.discovery(empty)))
        }
        #expect(none?.description.contains("no input devices there") == true)
    }

    @Test(
        "an unreadable node is refused with the group or udev rule to fix it",
        .enabled(if: getuid() != 0, "root reads any file, so a mode of 000 cannot make the node unreadable"))
    func unreadableNode() throws {
        let tree = try Self.machine()
        chmod(tree.nodePath(4), 0)
        let error = #expect(throws: EvdevError.self) {
            try EvdevMotionSource(configuration: .init(path: tree.nodePath(4), discovery: Self.discovery(tree)))
        }
        #expect(error?.kind == .permission)
        #expect(error?.description.contains("udev rule") == true && error?.description.contains("input") == true)
    }

    @Test("libevdev refuses a node that is not an evdev device; tilt sensors' report says why and lists it still")
    func reportOfAnUnreadableNode() throws {
        let tree = try Self.machine()
        let reports = Self.discovery(tree).reports(measureSeconds: 0.05)
        #expect(reports.map(\.name) == [Self.dualSense, "ST LIS3LV02DL Accelerometer"])
        #expect(reports[0].mount == "controller" && reports[1].mount == "identity")
        #expect(reports[0].accelResolution == nil && reports[0].rateHz == nil)
        #expect(reports[0].problem?.contains("evdev node") == true, "\(reports[0].problem ?? "")")
    }

    @Test("the controller mount is a proper rotation: a controller lying flat, face up, reads gravity up the device z")
    func controllerMount() {
        let m = EvdevMount.controller.matrix
        // At rest the accelerometer reads +1 g up the controller's y (out of its face).
        #expect(m.apply(Vector3(0, standardGravity, 0)) == Vector3(0, 0, standardGravity))
        // The controller's z points at the player: the device's −y (its top edge is away from the player).
        #expect(m.apply(Vector3(0, 0, 1)) == Vector3(0, -1, 0))
        #expect(m.apply(Vector3(1, 0, 0)) == Vector3(1, 0, 0))
        let r = m.rows
        let det =
            r[0] * (r[4] * r[8] - r[5] * r[7]) - r[1] * (r[3] * r[8] - r[5] * r[6]) + r[2] * (r[3] * r[7] - r[4] * r[6])
        #expect(det == 1)
        #expect(EvdevMount.identity.matrix == .identity)
    }
}
