import Foundation
import Testing
import TiltCore
import TiltSensors
import TiltTestKit

/// A recording's log says which sensors made it, and reads back the same way.
@Suite
struct SensorLogRecordingTests {
    @Test("a recording of two sensors names both, the first's rate and the source; the device reads back")
    func metadataRoundTrip() throws {
        let dir = TestPaths.temporaryDirectory("record")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("r.csv").path
        let sensors = [
            SensorDescription(
                name: "bmi160", kinds: ["accel", "anglvel"], location: "iio:device0", rateHz: 100, mode: "buffered"),
            SensorDescription(name: "ak8975", kinds: ["magn"], location: "iio:device1", rateHz: 20, mode: "polled"),
        ]
        let writer = try SensorLogWriter(recordingTo: path, sensors: sensors, source: "tiltd at /run/x.sock")
        try writer.append(MotionSample(time: 0, gyro: .zero, accel: Vector3(0, 0, 9.8), mag: Vector3(1, 2, 3)))
        try writer.append(MotionSample(time: 0.01, gyro: .zero, accel: Vector3(0, 0, 9.8), mag: Vector3(1, 2, 3)))
        try writer.close()

        let log = try SensorLog.read(path: path)
        #expect(log.metadata["device"] == "bmi160+ak8975")
        #expect(log.metadata["sampling_rate_hz"] == "100.0")
        #expect(log.metadata["source"] == "tiltd at /run/x.sock")
        #expect(log.recordedDeviceName == "bmi160")
        #expect(log.hasMagnetometer)
        #expect(log.samples.count == 2)
    }

    @Test("without a magnetometer or a known rate the log says so")
    func sixAxisUnknownRate() throws {
        let dir = TestPaths.temporaryDirectory("record")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("r.csv").path
        let sensor = SensorDescription(
            name: "x", kinds: ["accel", "anglvel"], location: "", rateHz: nil, mode: "polled")
        let writer = try SensorLogWriter(recordingTo: path, sensors: [sensor], source: "iio local:")
        try writer.append(MotionSample(time: 0, gyro: .zero, accel: Vector3(0, 0, 9.8)))
        try writer.close()
        let log = try SensorLog.read(path: path)
        #expect(log.metadata["sampling_rate_hz"] == "unknown")
        #expect(!log.hasMagnetometer)
        #expect(log.recordedDeviceName == "x")
    }
}
