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
