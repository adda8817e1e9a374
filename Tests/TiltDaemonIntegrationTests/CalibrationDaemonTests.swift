import Foundation
import Testing
import TiltCore
import TiltSensors
import TiltTestKit

/// Calibration end to end: the real `tiltd` applying (or refusing) calibration files, and the real `tilt calibrate`
/// fitting from logs and from a replaying daemon.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct CalibrationDaemonTests {
    static let bias = Vector3(0.05, -0.03, 0.02)

    /// A still log whose gyroscope reads ``bias``.
    private func stillLog(in dir: URL, seconds: Double = 20) throws -> String {
        let path = dir.appendingPathComponent("still.csv").path
        let samples = CalibrationFixtures.samples(duration: seconds, noise: .init(gyro: 0.001, accel: 0.01, mag: 0.1)) {
            _ in
            (Self.bias, Vector3(0, 0, standardGravity), Vector3(20, 0, -40))
        }
        try CalibrationFixtures.writeLog(samples, to: path)
        return path
    }

    /// Asks for raw samples and returns the mean gyroscope reading of the first `count`.
    private func meanGyro(_ socket: LineSocket, count: Int = 100) throws -> Vector3 {
        try socket.send(#"{"cmd":"watch","rate":5,"raw":true}"#)
        var sum = Vector3.zero
        for _ in 0..<count {
            let sample = try #require(socket.read(class: "sample"), "no raw sample within 5 s")
            let g = try #require(sample["gyr"] as? [Double])
            sum += Vector3(g[0], g[1], g[2])
        }
        return sum / Double(count)
    }

    private func statusCalibration(_ socket: LineSocket) throws -> String {
        let status = try #require(try socket.status(), "no status within 5 s")
        return try #require(status["calibration"] as? String)
    }

    @Test("a forced gyro-bias file changes the samples tiltd publishes; status names it; a replay is otherwise raw")
    func forcedCalibrationApplies() throws {
        let dir = TestPaths.temporaryDirectory("calD")
        let log = try stillLog(in: dir)
        let file = dir.appendingPathComponent("bias.calib").path
        try "format = 1\n[gyro]\nbias = 0.05, -0.03, 0.02\n".write(toFile: file, atomically: true, encoding: .utf8)

        let plain = try DaemonProcess.replaying(["--loop", "--speed", "4"], log: log, in: dir, socket: "p.sock")
        let plainClient = try plain.connect()
        #expect(try statusCalibration(plainClient).hasPrefix("none: a replayed log is already in the device frame"))
        let raw = try meanGyro(plainClient)
        #expect((raw - Self.bias).norm < 0.002, "uncalibrated samples keep the bias: \(raw)")
        #expect(plain.stop() == 0)

        let socket = DaemonProcess.temporarySocket(in: dir, name: "c.sock")
        let daemon = try DaemonProcess.replaying(
            ["--loop", "--speed", "4", "--calibration", file], log: log, in: dir, socket: "c.sock")
        let client = try daemon.connect()
        #expect(try statusCalibration(client) == "\(file): forced by --calibration")
        let corrected = try meanGyro(client)
        #expect(corrected.norm < 0.002, "calibrated samples lose the bias: \(corrected)")
        #expect(daemon.log.contains("calibration: \(file): forced by --calibration"), "\(daemon.log)")

        // Calibrating on top of calibrated samples is refused, saying what to do.
        let refused = try ChildProcess.run(
            TestPaths.executable("tilt"),
            ["calibrate", "gyro", "--socket", socket, "--output", dir.appendingPathComponent("x.calib").path])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("--no-calibration"), "\(refused.stderr)")
        #expect(daemon.stop() == 0)
    }

    @Test("a malformed calibration file: tiltd runs uncalibrated and says why in its log and in status")
    func malformedRunsUncalibrated() throws {
        let dir = TestPaths.temporaryDirectory("calB")
        let log = try stillLog(in: dir)
        let file = dir.appendingPathComponent("bad.calib").path
        try "format = 1\n[gyro]\nbias = 0.05, -0.03\n".write(toFile: file, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess.replaying(
            ["--loop", "--speed", "4", "--calibration", file], log: log, in: dir, socket: "b.sock")
        let client = try daemon.connect()
        let calibration = try statusCalibration(client)
        #expect(
            calibration.hasPrefix("none: \(file):3: gyro.bias: expected 3 comma-separated numbers"), "\(calibration)")
        #expect(calibration.hasSuffix("running uncalibrated"))
        let raw = try meanGyro(client)
        #expect((raw - Self.bias).norm < 0.002, "samples stay uncalibrated: \(raw)")
        #expect(daemon.log.contains("warning"), "\(daemon.log)")
        #expect(daemon.log.contains("\(file):3: gyro.bias"), "\(daemon.log)")
        #expect(daemon.stop() == 0)
    }

    @Test("tilt calibrate gyro through a replaying tiltd recovers the bias and writes a matched file")
    func calibrateGyroThroughDaemon() throws {
        let dir = TestPaths.temporaryDirectory("calG")
        let log = try stillLog(in: dir)
        let dmi = dir.appendingPathComponent("dmi")
        try FileManager.default.createDirectory(at: dmi, withIntermediateDirectories: true)
        try "Example Corp\n".write(to: dmi.appendingPathComponent("sys_vendor"), atomically: true, encoding: .utf8)
        let socket = DaemonProcess.temporarySocket(in: dir, name: "g.sock")
        let daemon = try DaemonProcess.replaying(["--loop", "--speed", "4"], log: log, in: dir, socket: "g.sock")
        _ = try daemon.connect()
        let output = dir.appendingPathComponent("out/gyro.calib").path
        let result = try ChildProcess.run(
            TestPaths.executable("tilt"),
            ["calibrate", "gyro", "--socket", socket, "--duration", "3", "--output", output, "--dmi-root", dmi.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("s left"), "a progress line: \(result.stderr)")
        #expect(result.stdout.contains("wrote \(output)"))
        let written = try CalibrationFile.read(path: output)
        #expect((written.gyroBias - Self.bias).norm < 0.001, "\(written.gyroBias)")
        #expect(written.match == CalibrationMatch(sysVendor: "Example Corp", name: "replay"))
        #expect(daemon.stop() == 0)
    }

    @Test("tilt calibrate accel --auto finds six positions in a replaying tiltd's stream")
    func calibrateAccelThroughDaemon() throws {
        let dir = TestPaths.temporaryDirectory("calA")
        let offset = Vector3(0.2, -0.1, 0.15)
        let matrix = Matrix3(rowMajor: [1.02, 0.01, 0, 0.01, 0.98, 0, 0, 0, 1.01])!
        let log = dir.appendingPathComponent("six.csv").path
        try CalibrationFixtures.writeLog(
            CalibrationFixtures.sixPositions(offset: offset, inverseMatrix: try #require(matrix.inverse)), to: log)
        let socket = DaemonProcess.temporarySocket(in: dir, name: "a.sock")
        let daemon = try DaemonProcess.replaying(["--loop", "--speed", "4"], log: log, in: dir, socket: "a.sock")
        _ = try daemon.connect()
        let output = dir.appendingPathComponent("accel.calib").path
        let result = try ChildProcess.run(
            TestPaths.executable("tilt"),
            ["calibrate", "accel", "--auto", "--timeout", "60", "--socket", socket, "--output", output])
        #expect(result.status == 0, "\(result.stderr)")
        let written = try CalibrationFile.read(path: output)
        #expect((written.accelOffset - offset).norm < 0.02, "\(written.accelOffset)")
        #expect(written.accelMatrix.maxDifference(to: matrix) < 0.005, "\(written.accelMatrix)")
        #expect(daemon.stop() == 0)
    }
}

/// `tilt calibrate` on logs written by the test (`--input`).
@Suite(.serialized, .timeLimit(.minutes(2)))
struct CalibrateCommandTests {
    @Test("gyro, then accel and mag with --force, build one file; an existing file is never replaced without --force")
    func buildsOneFile() throws {
        let dir = TestPaths.temporaryDirectory("calC")
        let output = dir.appendingPathComponent("device.calib").path
        let dmi = dir.appendingPathComponent("dmi")
        try FileManager.default.createDirectory(at: dmi, withIntermediateDirectories: true)
        try "Tablet 10\n".write(to: dmi.appendingPathComponent("product_name"), atomically: true, encoding: .utf8)

        let bias = Vector3(-0.011, 0.007, 0.003)
        let still = dir.appendingPathComponent("still.csv").path
        try CalibrationFixtures.writeLog(
            CalibrationFixtures.samples(duration: 12) { _ in (bias, Vector3(0, 0, standardGravity), nil) }, to: still)
        let gyro = try ChildProcess.run(
            TestPaths.executable("tilt"),
            ["calibrate", "gyro", "--input", still, "--output", output, "--dmi-root", dmi.path])
        #expect(gyro.status == 0, "\(gyro.stderr)")

        let offset = Vector3(0.12, 0.3, -0.2)
        let matrix = Matrix3(rowMajor: [0.99, 0.012, -0.006, 0.012, 1.03, 0.01, -0.006, 0.01, 0.97])!
        let six = dir.appendingPathComponent("six.csv").path
        try CalibrationFixtures.writeLog(
            CalibrationFixtures.sixPositions(
                offset: offset, inverseMatrix: try #require(matrix.inverse), noise: .init(accel: 0.04)),
            to: six)
        let refused = try ChildProcess.run(
            TestPaths.executable("tilt"), ["calibrate", "accel", "--input", six, "--output", output])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("already exists; pass --force"), "\(refused.stderr)")
        let accel = try ChildProcess.run(
            TestPaths.executable("tilt"), ["calibrate", "accel", "--input", six, "--output", output, "--force"])
        #expect(accel.status == 0, "\(accel.stderr)")

        let hardIron = Vector3(-15, 8, 33)
        let softIron = Matrix3(rowMajor: [1.05, 0.03, 0, 0.03, 0.95, 0, 0, 0, 1.0])!
        let normalised = Matrix3(rowMajor: softIron.elements.map { $0 / cbrt(softIron.determinant) })!
        let sweep = dir.appendingPathComponent("sweep.csv").path
        try CalibrationFixtures.writeLog(
            CalibrationFixtures.magneticSweep(hardIron: hardIron, inverseSoftIron: try #require(normalised.inverse)),
            to: sweep)
        let mag = try ChildProcess.run(
            TestPaths.executable("tilt"), ["calibrate", "mag", "--input", sweep, "--output", output, "--force"])
        #expect(mag.status == 0, "\(mag.stderr)")
        #expect(mag.stdout.contains("26 of 26 directions"), "\(mag.stdout)")

        let c = try CalibrationFile.read(path: output)
        #expect(c.match == CalibrationMatch(productName: "Tablet 10", name: "bmi160"))
        #expect((c.gyroBias - bias).norm < 0.0005, "\(c.gyroBias)")
        #expect((c.accelOffset - offset).norm < 0.01, "\(c.accelOffset)")
        #expect(c.accelMatrix.maxDifference(to: matrix) < 0.003, "\(c.accelMatrix)")
        #expect((c.magHardIron - hardIron).norm < 0.3, "\(c.magHardIron)")
        #expect(c.magSoftIron.maxDifference(to: normalised) < 0.01, "\(c.magSoftIron)")
        let text = try String(contentsOfFile: output, encoding: .utf8)
        #expect(text.contains("# tilt calibrate gyro at") && text.contains("# tilt calibrate mag at"))
    }

    @Test("calibrate gyro refuses a device that moved, and writes nothing")
    func gyroRefusesMovement() throws {
        let dir = TestPaths.temporaryDirectory("calM")
        let moving = dir.appendingPathComponent("moving.csv").path
        try CalibrationFixtures.writeLog(
            CalibrationFixtures.samples(duration: 12) { t in
                (Vector3(0.1 * sin(3 * t), 0, 0), Vector3(0, 0, standardGravity), nil)
            }, to: moving)
        let output = dir.appendingPathComponent("never.calib").path
        let result = try ChildProcess.run(
            TestPaths.executable("tilt"), ["calibrate", "gyro", "--input", moving, "--output", output])
        #expect(result.status == 1)
        #expect(result.stderr.contains("the device moved (gyro std"), "\(result.stderr)")
        #expect(result.stderr.contains("put it on a table and run again"))
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test("calibrate accel says which positions a log is missing")
    func accelMissingPositions() throws {
        let dir = TestPaths.temporaryDirectory("calP")
        let flat = dir.appendingPathComponent("flat.csv").path
        try CalibrationFixtures.writeLog(
            CalibrationFixtures.samples(duration: 6) { _ in (.zero, Vector3(0, 0, standardGravity), nil) }, to: flat)
        let result = try ChildProcess.run(
            TestPaths.executable("tilt"),
            ["calibrate", "accel", "--input", flat, "--output", dir.appendingPathComponent("a.calib").path])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("found 1 of 6 still positions; missing -z up, +y up, -y up, +x up, -x up"),
            "\(result.stderr)")
    }

    @Test("calibrate match picks the file for a fake machine's DMI strings and sensor name")
    func matchCommand() throws {
        let dir = TestPaths.temporaryDirectory("calW")
        let dmi = dir.appendingPathComponent("dmi")
        let first = dir.appendingPathComponent("etc")
        let second = dir.appendingPathComponent("user")
        for folder in [dmi, first, second] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        try "Example Corp\n".write(to: dmi.appendingPathComponent("sys_vendor"), atomically: true, encoding: .utf8)
        try "Example Tablet 10\n".write(
            to: dmi.appendingPathComponent("product_name"), atomically: true, encoding: .utf8)
        try "format = 1\n[match]\nname = bmi160\n".write(
            to: first.appendingPathComponent("sensor.calib"), atomically: true, encoding: .utf8)
        let bundled = TestPaths.repositoryRoot.appendingPathComponent("Calibration").path
        let arguments = [
            "calibrate", "match", "--dmi-root", dmi.path, "--calibration-dir", first.path,
            "--calibration-dir", second.path, "--calibration-dir", bundled,
        ]
        // The bundled example names this fictional machine and sensor with four keys: it beats the one-key file.
        let example = try ChildProcess.run(
            TestPaths.executable("tilt"), arguments + ["--name", "bmi160", "--label", "accel-display"])
        #expect(example.status == 0, "\(example.stderr)")
        #expect(
            example.stdout.contains(
                "calibration  \(bundled)/example-tablet-bmi160.calib: matched sys_vendor=Example Corp, "
                    + "product_name=Example Tablet 10, name=bmi160, label=accel-display"),
            "\(example.stdout)")
        // Without the label only the one-key file in the first folder and the bundled identity agree.
        let sensor = try ChildProcess.run(
            TestPaths.executable("tilt"), arguments + ["--name", "bmi160"])
        #expect(
            sensor.stdout.contains("calibration  \(first.path)/sensor.calib: matched name=bmi160"), "\(sensor.stdout)")
        // Another sensor: only the identity file, which matches any device.
        let other = try ChildProcess.run(
            TestPaths.executable("tilt"), arguments + ["--name", "lsm6dsl"])
        #expect(
            other.stdout.contains("\(bundled)/identity.calib: matched (no match keys: any device)"), "\(other.stdout)")
        // No bundled folder: nothing matches, exit status 1.
        let none = try ChildProcess.run(
            TestPaths.executable("tilt"),
            ["calibrate", "match", "--dmi-root", dmi.path, "--calibration-dir", second.path, "--name", "x"])
        #expect(none.status == 1)
        #expect(none.stdout.contains("none: no file matched (looked in \(second.path))"), "\(none.stdout)")
    }
}
