import Foundation
import Testing
import TiltCore
import TiltSensors
import TiltTestKit

/// What `tilt calibrate` writes and says (issue 19): a file for one device even without DMI, the reload that applies
/// it, and a comment that describes the values in the file after `--force`.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct CalibrateWriteTests {
    /// A still log of 12 s with gyro bias `bias`; `device` names the sensor (empty: the log does not say).
    private func stillLog(_ name: String, in dir: URL, bias: Vector3, device: String = "bmi160") throws -> String {
        let path = dir.appendingPathComponent(name).path
        try CalibrationFixtures.writeLog(
            CalibrationFixtures.samples(duration: 12) { _ in (bias, Vector3(0, 0, standardGravity), nil) }, to: path,
            device: device)
        return path
    }

    private func emptyDMI(in dir: URL) throws -> String {
        let dmi = dir.appendingPathComponent("no-dmi")
        try FileManager.default.createDirectory(at: dmi, withIntermediateDirectories: true)
        return dmi.path
    }

    private func calibrate(_ arguments: [String]) throws -> ChildProcess {
        try ChildProcess.run(TestPaths.executable("tilt"), ["calibrate"] + arguments)
    }

    @Test("no DMI and no sensor name: refused, saying how to match the sensor or ask for a catch-all file")
    func refusesAFileForEveryDevice() throws {
        let dir = TestPaths.temporaryDirectory("calD")
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = try stillLog("anonymous.csv", in: dir, bias: Vector3(0.01, 0, 0), device: "")
        let dmi = try emptyDMI(in: dir)
        let output = dir.appendingPathComponent("out.calib").path
        let refused = try calibrate(["gyro", "--input", log, "--output", output, "--dmi-root", dmi])
        #expect(refused.status == 1)
        #expect(
            refused.stderr.contains("error: nothing identifies this device: no DMI strings in \(dmi)"),
            "\(refused.stderr)")
        #expect(refused.stderr.contains("--name NAME") && refused.stderr.contains("--match-any"))
        #expect(!FileManager.default.fileExists(atPath: output))

        let named = try calibrate(["gyro", "--input", log, "--output", output, "--dmi-root", dmi, "--name", "bmi160"])
        #expect(named.status == 0, "\(named.stderr)")
        #expect(
            named.stderr.contains(
                "note: no DMI strings in \(dmi): the file matches any machine whose sensor has "
                    + "name 'bmi160'"), "\(named.stderr)")
        #expect(try CalibrationFile.read(path: output).match == CalibrationMatch(name: "bmi160"))

        let any = dir.appendingPathComponent("any.calib").path
        let asked = try calibrate(["gyro", "--input", log, "--output", any, "--dmi-root", dmi, "--match-any"])
        #expect(asked.status == 0, "\(asked.stderr)")
        #expect(try CalibrationFile.read(path: any).match.specificity == 0)
    }

    @Test("no DMI: the sensor's name from the log is the match")
    func noDMIMatchesTheSensor() throws {
        let dir = TestPaths.temporaryDirectory("calN")
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = try stillLog("still.csv", in: dir, bias: Vector3(0.01, 0, 0))
        let output = dir.appendingPathComponent("out.calib").path
        let result = try calibrate(["gyro", "--input", log, "--output", output, "--dmi-root", try emptyDMI(in: dir)])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try CalibrationFile.read(path: output).match == CalibrationMatch(name: "bmi160"))
    }

    @Test("after writing it says that a reload applies the file (SIGHUP re-resolves the calibration)")
    func saysReloadNotRestart() throws {
        let dir = TestPaths.temporaryDirectory("calR")
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = try stillLog("still.csv", in: dir, bias: Vector3(0.01, 0, 0))
        let output = dir.appendingPathComponent("out.calib").path
        let result = try calibrate(["gyro", "--input", log, "--output", output])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.hasSuffix(
                "wrote \(output); `systemctl reload tiltd` (or `kill -HUP` tiltd's pid) applies it, unless tiltd "
                    + "runs with --no-calibration: then restart it without\n"), "\(result.stdout)")
        #expect(!result.stdout.contains("restart tiltd to apply"))
    }

    @Test("--force on a part measured before: the comment names the new run only, and keeps the other parts' runs")
    func forceRewritesThePartsComment() throws {
        let dir = TestPaths.temporaryDirectory("calF")
        defer { try? FileManager.default.removeItem(at: dir) }
        let output = dir.appendingPathComponent("out.calib").path
        let first = try stillLog("first.csv", in: dir, bias: Vector3(0.01, 0, 0))
        let second = try stillLog("second.csv", in: dir, bias: Vector3(0.02, 0, 0))
        #expect(try calibrate(["gyro", "--input", first, "--output", output]).status == 0)
        let six = dir.appendingPathComponent("six.csv").path
        try CalibrationFixtures.writeLog(
            CalibrationFixtures.sixPositions(offset: Vector3(0.1, 0, 0), inverseMatrix: .identity), to: six)
        let accel = try calibrate(["accel", "--input", six, "--output", output, "--force"])
        #expect(accel.status == 0, "\(accel.stderr)")
        let again = try calibrate(["gyro", "--input", second, "--output", output, "--force"])
        #expect(again.status == 0, "\(again.stderr)")

        let text = try String(contentsOfFile: output, encoding: .utf8)
        let comment = text.split(separator: "\n").prefix { $0.hasPrefix("#") }
        #expect(comment.count == 4, "two runs of two lines: \(text)")
        #expect(
            comment.first?.hasPrefix("# tilt calibrate accel at ") == true && comment.contains { $0.hasSuffix(six) })
        #expect(comment.contains { $0.hasPrefix("# tilt calibrate gyro at ") && $0.hasSuffix("from log \(second)") })
        #expect(!text.contains(first), "the first gyro run no longer describes the file: \(text)")
        #expect(try CalibrationFile.read(path: output).gyroBias.x > 0.015)
    }
}
