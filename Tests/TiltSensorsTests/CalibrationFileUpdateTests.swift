import Foundation
import Testing
import TiltCore
import TiltSensors
import TiltTestKit

/// Writing one sensor's fit into a calibration file, new or existing.
@Suite
struct CalibrationFileUpdateTests {
    static let identity = CalibrationIdentity(sysVendor: "Example Corp", productName: "Tab 10", name: "bmi160")

    @Test("the default file name is product and sensor, lower case, with unsafe characters replaced")
    func defaultPath() {
        #expect(
            CalibrationFileUpdate.defaultPath(for: Self.identity, directory: "/d") == "/d/tab-10-bmi160.calib")
        #expect(CalibrationFileUpdate.defaultPath(for: .init(), directory: "/d") == "/d/default.calib")
        #expect(CalibrationFileUpdate.defaultPath(for: .init(name: "a/b"), directory: "/d") == "/d/a-b.calib")
    }

    @Test("a new file is matched to the device; a second fit is refused without replace, kept with it")
    func newThenReplace() throws {
        let dir = TestPaths.temporaryDirectory("calib-update")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("x.calib").path
        let bias = Vector3(0.01, -0.02, 0.003)
        try CalibrationFileUpdate.write(
            to: path, identity: Self.identity, replaceExisting: false, comment: ["gyro run"]
        ) { $0.gyroBias = bias }
        let first = try CalibrationFile.read(path: path)
        #expect(first.match == Self.identity)
        #expect(first.gyroBias == bias)

        let offset = Vector3(0.1, 0.2, 0.3)
        #expect(throws: CalibrationFileUpdate.Failure.exists(path: path)) {
            try CalibrationFileUpdate.write(
                to: path, identity: Self.identity, replaceExisting: false, comment: ["accel run"]
            ) { $0.accelOffset = offset }
        }
        // Another identity does not change the [match] of an existing file: only the fitted part changes.
        try CalibrationFileUpdate.write(
            to: path, identity: .init(name: "other"), replaceExisting: true, comment: ["accel run"]
        ) { $0.accelOffset = offset }
        let second = try CalibrationFile.read(path: path)
        #expect(second.match == Self.identity)
        #expect(second.gyroBias == bias, "the gyro part is kept")
        #expect(second.accelOffset == offset)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasPrefix("# gyro run\n# accel run\n"), "\(text)")
    }

    @Test("a new file with no [match] keys would apply to every device: refused unless asked for")
    func matchEveryDevice() throws {
        let dir = TestPaths.temporaryDirectory("calib-update")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("any.calib").path
        #expect(throws: CalibrationFileUpdate.Failure.matchesEveryDevice(path: path)) {
            try CalibrationFileUpdate.write(to: path, identity: .init(), replaceExisting: false, comment: []) {
                $0.gyroBias = Vector3(0.01, 0, 0)
            }
        }
        #expect(!FileManager.default.fileExists(atPath: path))
        // The sensor's name alone is enough: the file is for that sensor.
        let named = dir.appendingPathComponent("named.calib").path
        try CalibrationFileUpdate.write(to: named, identity: .init(name: "bmi160"), replaceExisting: false, comment: [])
        { $0.gyroBias = Vector3(0.01, 0, 0) }
        #expect(try CalibrationFile.read(path: named).match == CalibrationMatch(name: "bmi160"))
        try CalibrationFileUpdate.write(
            to: path, identity: .init(), replaceExisting: false, matchEveryDevice: true, comment: []
        ) { $0.gyroBias = Vector3(0.01, 0, 0) }
        #expect(try CalibrationFile.read(path: path).match.specificity == 0)
    }

    @Test("measuring a part again replaces that part's comment lines; the other parts' and a person's notes stay")
    func commentDescribesTheNewCalibration() throws {
        let dir = TestPaths.temporaryDirectory("calib-update")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("x.calib").path
        try """
        # my tablet, measured on the desk
        format = 1

        [match]
        name = bmi160
        """.write(toFile: path, atomically: true, encoding: .utf8)
        func run(_ part: CalibrationFileUpdate.Part, _ what: String, bias: Double = 0.01) throws {
            try CalibrationFileUpdate.write(
                to: path, identity: Self.identity, replaceExisting: true, part: part,
                comment: ["\(part.command) at \(what)", "\(what) summary"]
            ) {
                switch part {
                case .gyro: $0.gyroBias = Vector3(bias, 0, 0)
                case .accel: $0.accelOffset = Vector3(bias, 0, 0)
                case .mag: $0.magHardIron = Vector3(bias, 0, 0)
                }
            }
        }
        try run(.gyro, "first gyro")
        try run(.accel, "accel")
        try run(.gyro, "second gyro", bias: 0.02)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(
            text.hasPrefix(
                """
                # my tablet, measured on the desk
                # tilt calibrate accel at accel
                # accel summary
                # tilt calibrate gyro at second gyro
                # second gyro summary
                format = 1

                """), "\(text)")
        #expect(!text.contains("first gyro"))
        #expect(try CalibrationFile.read(path: path).gyroBias == Vector3(0.02, 0, 0))
    }

    @Test("an existing file that does not parse is reported, not overwritten")
    func unreadable() throws {
        let dir = TestPaths.temporaryDirectory("calib-update")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("bad.calib").path
        try "not a calibration file\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect {
            try CalibrationFileUpdate.write(to: path, identity: Self.identity, replaceExisting: true, comment: []) {
                $0.gyroBias = .zero
            }
        } throws: { error in
            if case .unreadable = error as? CalibrationFileUpdate.Failure { return true }
            return false
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "not a calibration file\n")
    }
}
