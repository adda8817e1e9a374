import Foundation
import Synchronization
import Testing
import TiltCore
import TiltSensors
import TiltTestKit

/// Gaps in a sensor log (docs/log-format.md): `# gap` markers and time that goes back.
@Suite struct SensorLogGapTests {
    private func write(_ text: String, in dir: URL) throws -> String {
        let path = dir.appendingPathComponent("gaps.csv").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aMarkerIsReadIntoTheGapBeforeTheNextRow() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try write(
            """
            # sampling_rate_hz=100
            t,gyr_x,gyr_y,gyr_z,acc_x,acc_y,acc_z
            1.00,0,0,0,0,0,9.8
            # gap count=3; first=1.01; last=1.03; future=ignored
            # gap reason=reconnected to tiltd
            1.04,0,0,0,0,0,9.8
            # a plain comment, not a gap
            1.05,0,0,0,0,0,9.8
            """, in: dir)
        let log = try SensorLog.read(path: path)
        #expect(log.samples.count == 3)
        #expect(log.gaps == [1: SampleGap(count: 3, first: 1.01, last: 1.03, reason: "reconnected to tiltd")])
    }

    @Test func timeGoingBackIsAGapAndOldLogsHaveNone() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try write(
            "t,gyr_x,gyr_y,gyr_z,acc_x,acc_y,acc_z\n43.49,0,0,0,0,0,9.8\n43.5,0,0,0,0,0,9.8\n43.5,0,0,0,0,0,9.8\n"
                + "20.0025,0,0,0,0,0,9.8\n20.0060,0,0,0,0,0,9.8\n", in: dir)
        let log = try SensorLog.read(path: path)
        #expect(Array(log.gaps.keys) == [3], "a repeated time is no gap; a time that goes back is")
        #expect(log.gaps[3]?.reason?.contains("time goes back from 43.5 s to 20.0025 s") == true)
        #expect(try SensorLog.read(path: TestPaths.broadExcerpt).gaps.isEmpty)
    }

    @Test func theWritersMarkersReadBack() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("w.csv.gz").path
        let writer = try SensorLogWriter(path: path, hasMagnetometer: false)
        try writer.append(MotionSample(time: 1, gyro: .zero, accel: Vector3(0, 0, 9.8)))
        let gap = SampleGap(count: 393, first: 1.0125, last: 2.25, reason: "a; b")
        try writer.appendGap(gap)
        try writer.append(MotionSample(time: 2.5, gyro: .zero, accel: Vector3(0, 0, 9.8)))
        try writer.close()
        #expect(writer.gapCount == 1)
        let log = try SensorLog.read(path: path)
        #expect(log.gaps == [1: SampleGap(count: 393, first: 1.0125, last: 2.25, reason: "a, b")])
    }

    @Test func aReplayTellsTheGapAndKeepsItsClockGoingForward() async throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var text = "t,gyr_x,gyr_y,gyr_z,acc_x,acc_y,acc_z\n"
        for i in 0..<10 { text += "\(43.0 + Double(i) * 0.01),0,0,0,0,0,9.8\n" }
        for i in 0..<10 { text += "\(20.0 + Double(i) * 0.01),0,0,0,0,0,9.8\n" }
        let path = try write(text, in: dir)
        let source = try LogReplaySource(configuration: .init(path: path, speed: 1000))
        let events = EventList()
        try await source.run(rate: nil) { events.append($0) }
        let all = events.all
        let times = all.compactMap { if case .sample(let s) = $0 { s.time } else { nil } }
        #expect(times.count == 20)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "\(times)")
        let gapIndex = try #require(all.firstIndex { if case .gap = $0 { true } else { false } })
        let before = all[..<gapIndex].count { if case .sample = $0 { true } else { false } }
        #expect(before == 10, "the gap comes just before the first sample after the jump")
    }
}

/// Events a source reported, in order.
final class EventList: Sendable {
    private let events = Mutex<[MotionSourceEvent]>([])
    func append(_ event: MotionSourceEvent) { events.withLock { $0.append(event) } }
    var all: [MotionSourceEvent] { events.withLock { $0 } }
}
