import Foundation
import Testing
import TiltCore
import TiltSensors
import TiltTestKit

/// The built `tilt` and `tiltd` against a fake `/sys/class/input` and `/dev` in a private user + mount namespace
/// (``FakeInputTree``): what they find at the real paths. Skipped, saying why, where namespaces are not permitted.
@Suite(
    .serialized,
    .enabled(if: FakeIIOTree.namespacesWork, "unprivileged user+mount namespaces (unshare -rm) are not permitted here"))
struct EvdevNamespaceTests {
    static let dualSense = "Sony Interactive Entertainment DualSense Wireless Controller Motion Sensors"

    static func machine() throws -> FakeInputTree {
        let tree = try FakeInputTree()
        try tree.addDevice(1, name: "Sony Interactive Entertainment DualSense Wireless Controller", abs: "3003f")
        try tree.addDevice(
            5, name: dualSense, properties: FakeInputTree.accelerometerProperties, abs: FakeInputTree.sixAxes)
        return tree
    }

    @Test("tilt sensors lists the motion sensor at /dev/input, as text and in --json, beside IIO")
    func tiltSensorsListsIt() throws {
        let tree = try Self.machine()
        let json = try tree.run([TestPaths.executable("tilt"), "sensors", "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        let inventory = try JSONDecoder().decode(SensorInventory.self, from: Data(json.stdout.utf8))
        let device = try #require(inventory.evdev.first, "\(json.stdout)")
        #expect(inventory.evdev.count == 1)
        #expect(device.path == "/dev/input/event5" && device.name == Self.dualSense)
        #expect(device.kinds == ["accel", "anglvel"] && device.mount == "controller")
        // A plain file stands for the node: libevdev cannot read it, and the report says so.
        #expect(device.problem?.contains("evdev node") == true, "\(device.problem ?? "")")
        let text = try tree.run([TestPaths.executable("tilt"), "sensors"])
        #expect(text.stdout.contains("/dev/input/event5: \(Self.dualSense) — evdev"), "\(text.stdout)")
        #expect(text.stdout.contains("axes x y z rx ry rz"), "\(text.stdout)")
    }

    @Test("tiltd --evdev --check names the device auto picks, and calibration files match its name")
    func tiltdCheckNamesTheDevice() throws {
        let tree = try Self.machine()
        let calibrations = tree.root.appendingPathComponent("calibration.d")
        try FileManager.default.createDirectory(at: calibrations, withIntermediateDirectories: true)
        try Data(
            """
            format = 1
            [match]
            name = \(Self.dualSense)
            [mount]
            matrix = 1, 0, 0, 0, 0, 1, 0, -1, 0

            """.utf8
        ).write(to: calibrations.appendingPathComponent("dualsense.calib"))
        let socket = tree.root.appendingPathComponent("t.sock").path
        let tiltd = TestPaths.executable("tiltd")
        let result = try tree.run([
            tiltd, "--evdev", "--check", "--socket", socket, "--calibration-dir", calibrations.path,
        ])
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(
            result.stdout.contains(
                "source: evdev the first motion sensor found (auto), now /dev/input/event5: \(Self.dualSense) "
                    + "(accel, anglvel; controller mount)"), "\(result.stdout)")
        #expect(result.stdout.contains("dualsense.calib: matched name=\(Self.dualSense)"), "\(result.stdout)")

        let wrong = try tree.run([tiltd, "--check", "--socket", socket, "--evdev", "/dev/input/event1"])
        #expect(wrong.status == 1)
        #expect(
            wrong.stdout.contains("FAIL source: cannot read an evdev motion sensor: /dev/input/event1 (Sony"),
            "\(wrong.stdout)")
        #expect(wrong.stdout.contains("is not a motion sensor"), "\(wrong.stdout)")
    }
}
