import Foundation
import Testing
import TiltCore
import TiltSensors
import TiltTestKit

@Suite struct SensorLogTests {
    private func write(_ text: String, name: String = "log.csv") throws -> (URL, String) {
        let dir = TestPaths.temporaryDirectory("tiltlog")
        let path = dir.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return (dir, path)
    }

    private func expectError(
        _ text: String, kind: SensorLogError.Kind, line: Int?, column: String?, containing needle: String
    ) throws {
        let (dir, path) = try write(text)
        defer { try? FileManager.default.removeItem(at: dir) }
        do {
            // Strict: a bad row is skipped by default (SensorLogDamageTests); header and file errors throw either way.
            _ = try SensorLog.read(path: path, badRows: .strict)
            Issue.record("expected an error for \(text.debugDescription)")
        } catch {
            #expect(error.kind == kind)
            #expect(error.path == path)
            #expect(error.line == line)
            #expect(error.column == column)
            #expect(error.description.contains(needle), "\(error.description)")
        }
    }

    @Test func readsTheBundledBroadExcerpt() throws {
        let log = try SensorLog.read(path: TestPaths.broadExcerpt)
        #expect(log.samples.count == 17143)
        #expect(log.hasMagnetometer)
        #expect(log.metadata["sampling_rate_hz"] == "285.714286")
        #expect(abs((log.samplingRate ?? 0) - 285.714286) < 1e-6)
        #expect(log.truth?.count == log.samples.count)
        #expect(log.movement?.contains(true) == true)
        let first = try #require(log.samples.first)
        #expect(first.time == 20.0025)
        #expect(first.accel == Vector3(-0.2695414, -0.3680699, 9.952669))
        #expect(first.mag == Vector3(0.823065, 13.6335, -39.9764))
    }

    @Test func plainCSVWithCommentsUnknownColumnsAndCRLF() throws {
        let text =
            "# sampling_rate_hz=100; device=test\r\n# a free comment\r\nt,acc_x,acc_y,acc_z,extra,gyr_x,gyr_y,gyr_z\r\n\r\n0.0,0,0,9.8,hello,0.1,0.2,0.3\r\n0.01,0,0,9.8,x,0.1,0.2,0.3\r\n"
        let (dir, path) = try write(text)
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = try SensorLog.read(path: path)
        #expect(log.samples.count == 2)
        #expect(!log.hasMagnetometer && log.truth == nil && log.movement == nil)
        #expect(log.metadata == ["sampling_rate_hz": "100", "device": "test"])
        #expect(log.samples[1].gyro == Vector3(0.1, 0.2, 0.3))
    }

    @Test func missingRequiredColumnNamesIt() throws {
        try expectError(
            "t,gyr_x,gyr_y,acc_x,acc_y,acc_z\n0,0,0,0,0,9.8\n", kind: .header, line: 1, column: "gyr_z",
            containing: "gyr_z")
    }

    @Test func partialMagnetometerColumnsAreRefused() throws {
        try expectError(
            "t,gyr_x,gyr_y,gyr_z,acc_x,acc_y,acc_z,mag_x\n", kind: .header, line: 1, column: "mag_x..z",
            containing: "mag_x")
    }

    @Test func nonNumberNamesLineAndColumn() throws {
        try expectError(
            "# c\nt,gyr_x,gyr_y,gyr_z,acc_x,acc_y,acc_z\n0,0,0,0,0,0,9.8\n0.01,0,0,0,oops,0,9.8\n", kind: .row, line: 4,
            column: "acc_x", containing: "'oops' is not a number")
    }

    @Test func wrongFieldCountNamesTheLine() throws {
        try expectError(
            "t,gyr_x,gyr_y,gyr_z,acc_x,acc_y,acc_z\n0,0,0,0,0,0\n", kind: .row, line: 2, column: nil,
            containing: "6 fields")
    }

    @Test func nonFiniteRequiredValueIsAnError() throws {
        try expectError(
            "t,gyr_x,gyr_y,gyr_z,acc_x,acc_y,acc_z\n0,nan,0,0,0,0,9.8\n", kind: .row, line: 2, column: "gyr_x",
            containing: "not finite")
    }

    @Test func emptyFileHasNoHeader() throws {
        try expectError("# only a comment\n", kind: .file, line: nil, column: nil, containing: "no header")
    }

    @Test func missingFileSaysSo() {
        #expect(throws: SensorLogError.self) { try SensorLog.read(path: "/nonexistent/x.csv") }
    }

    @Test func readerGoesOnAfterABadRow() throws {
        let (dir, path) = try write(
            "t,gyr_x,gyr_y,gyr_z,acc_x,acc_y,acc_z\n0,0,0,0,0,0,9.8\n1,0,0,0,0,0\n2,0,0,0,0,0,9.8\n")
        defer { try? FileManager.default.removeItem(at: dir) }
        let reader = try SensorLogReader(path: path)
        #expect(try reader.next()?.sample.time == 0)
        #expect(throws: SensorLogError.self) { try reader.next() }
        #expect(try reader.next()?.sample.time == 2)
        #expect(try reader.next() == nil)
    }

    @Test(arguments: ["round.csv", "round.csv.gz"])
    func writerRoundTripsExactly(_ name: String) throws {
        let dir = TestPaths.temporaryDirectory("tiltlog")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent(name).path
        let samples = (0..<1000).map { i in
            let t = Double(i) / 285.714286
            return MotionSample(
                time: t, gyro: Vector3(sin(t), 0.1 / 3, -1e-7), accel: Vector3(0.12345678901234, -9.80665, 1 / 7),
                mag: i == 5 ? nil : Vector3(20.5, -3, 44))
        }
        let writer = try SensorLogWriter(
            path: path, metadata: [("sampling_rate_hz", "285.714286"), ("source", "test")], hasMagnetometer: true)
        for s in samples { try writer.append(s) }
        try writer.close()
        let log = try SensorLog.read(path: path)
        #expect(log.samples == samples)
        #expect(log.metadata["source"] == "test")
    }

    @Test func writerToAMissingFolderFailsClearly() {
        do {
            _ = try SensorLogWriter(path: "/nonexistent-dir/out.csv", hasMagnetometer: false)
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .file)
            #expect(error.description.contains("folder"))
        }
    }

    /// /dev/full accepts the open and fails every write with ENOSPC.
    @Test(.enabled(if: FileManager.default.isWritableFile(atPath: "/dev/full"), "needs a writable /dev/full"))
    func writerReportsAFullDisk() throws {
        let writer = try SensorLogWriter(path: "/dev/full", hasMagnetometer: false)
        do {
            for i in 0..<100_000 { try writer.append(MotionSample(time: Double(i), gyro: .zero, accel: .zero)) }
            try writer.flush()
            Issue.record("writing to /dev/full must fail")
        } catch {
            #expect(error.kind == .file)
            #expect(error.description.contains("No space left") || error.description.contains("disk"), "\(error)")
        }
    }
}
