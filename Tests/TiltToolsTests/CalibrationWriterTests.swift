import Foundation
import Synchronization
import Testing
import TiltCore
import TiltSensors
import TiltTestKit
import TiltTools

/// Writing a calibration: a file must name its device, an existing one needs --force.
@Suite
struct CalibrationWriterTests {
    private func emptyDMI(in dir: URL) throws -> String {
        let dmi = dir.appendingPathComponent("no-dmi")
        try FileManager.default.createDirectory(at: dmi, withIntermediateDirectories: true)
        return dmi.path
    }

    @Test("no DMI and no name: refused; with the sample's name: written, with a note; again: needs --force")
    func writes() throws {
        let dir = TestPaths.temporaryDirectory("calW")
        defer { try? FileManager.default.removeItem(at: dir) }
        let dmi = try emptyDMI(in: dir)
        let output = dir.appendingPathComponent("out.calib").path
        let notes = Mutex<[String]>([])
        var writer = CalibrationWriter(
            output: output, force: false, matchAny: false, name: nil, label: nil, dmiRoot: dmi,
            note: { note in notes.withLock { $0.append(note) } })
        let bias = Vector3(0.01, 0, 0)
        #expect {
            try writer.write(device: .init(name: nil, origin: "log x"), part: .gyro, summary: "s") {
                $0.gyroBias = bias
            }
        } throws: { error in
            (error as? CalibrateError)?.kind == .output
                && (error as? CalibrateError)?.message.hasPrefix(
                    "nothing identifies this device: no DMI strings in \(dmi)")
                    == true
        }
        #expect(!FileManager.default.fileExists(atPath: output))

        let device = CalibrationSampleFeed.Device(name: "bmi160", origin: "log x")
        let path = try writer.write(device: device, part: .gyro, summary: "s") { $0.gyroBias = bias }
        #expect(path == output)
        #expect(try CalibrationFile.read(path: output).match == CalibrationMatch(name: "bmi160"))
        #expect(
            notes.withLock { $0 }
                == ["note: no DMI strings in \(dmi): the file matches any machine whose sensor has name 'bmi160'"])

        #expect {
            try writer.write(device: device, part: .gyro, summary: "s") { $0.gyroBias = bias }
        } throws: { error in
            (error as? CalibrateError)?.kind == .output
                && (error as? CalibrateError)?.message.hasPrefix("\(output) already exists; pass --force") == true
        }
        writer.force = true
        _ = try writer.write(device: device, part: .gyro, summary: "s") { $0.gyroBias = bias * 2 }
        #expect(try CalibrationFile.read(path: output).gyroBias.x > 0.015)
        #expect(CalibrationWriter.applyHint(output).hasPrefix("wrote \(output); `systemctl reload tiltd`"))
    }
}
