import Foundation
import Testing
import TiltCore
import TiltFusion
import TiltSensors
import TiltTestKit
import TiltTools
import TiltWire

/// `tilt fuse` and `tilt replay` over logs with gaps, and `tilt record`'s refusal of the replayed log (issue 28).
@Suite struct GapFusionTests {
    /// A turning device: 2 s at 100 Hz spinning about z at 0.5 rad/s, then, after the break, 2 s more.
    private func turning(from start: Double, count: Int = 200) -> [MotionSample] {
        (0..<count).map { i in
            MotionSample(time: start + Double(i) * 0.01, gyro: Vector3(0, 0, 0.5), accel: Vector3(0, 0, 9.81))
        }
    }

    private func fused(_ samples: [MotionSample], gaps: [Int: SampleGap]) throws -> [[Double]] {
        var text = ""
        try FusedCSV.fuse(samples, gaps: gaps, useMagnetometer: false, name: "test") { text += $0 }
        return text.split(separator: "\n").dropFirst().map { $0.split(separator: ",").map { Double($0) ?? .nan } }
    }

    @Test("time that goes back is fused as a gap: as the same samples after a marker, never frozen")
    func backwardsTimeIsAGap() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A recording across a daemon restart: 43.5 s, then the clock starts over at 20 s.
        let samples = turning(from: 41.5) + turning(from: 20.0025)
        let writer = try SensorLogWriter(path: dir.appendingPathComponent("back.csv").path, hasMagnetometer: false)
        for s in samples { try writer.append(s) }
        try writer.close()
        let log = try SensorLog.read(path: writer.path)
        #expect(Array(log.gaps.keys) == [200])
        let rows = try fused(log.samples, gaps: log.gaps)
        #expect(rows.count == 400)
        let after = rows[200...].map { Array($0[1...4]) }
        #expect(Set(after.map { $0.map { ($0 * 1e9).rounded() } }).count > 190, "the attitude goes on turning")
        // The same samples with the clock going on instead, after a marker: the same attitude.
        let shifted = turning(from: 41.5) + turning(from: 50)
        let reference = try fused(shifted, gaps: [200: SampleGap(reason: "marked")])
        for (a, b) in zip(rows, reference) {
            #expect(zip(a[1...4], b[1...4]).allSatisfy { abs($0 - $1) < 1e-9 }, "\(a[0]): \(a[1...4]) vs \(b[1...4])")
        }
    }

    @Test("a marked gap is not integrated: the turn the lost samples made is not invented")
    func markedGapIsNotIntegrated() throws {
        // 1 s of samples at 0.5 rad/s, 0.5 s lost, 1 s more. Fused across the gap without its marker, the filter
        // integrates the next rate over the whole 0.5 s; with it, one nominal interval.
        let samples = turning(from: 0, count: 100) + turning(from: 1.5, count: 100)
        let unmarked = try fused(samples, gaps: [:])
        let marked = try fused(samples, gaps: [100: SampleGap(count: 50, first: 1.0, last: 1.49)])
        let yaw = 7  // the yaw column
        let jumpUnmarked = unmarked[100][yaw] - unmarked[99][yaw]
        let jumpMarked = marked[100][yaw] - marked[99][yaw]
        #expect(abs(jumpUnmarked) > 0.2, "0.5 rad/s over 0.5 s: \(jumpUnmarked)")
        #expect(abs(jumpMarked) < 0.01, "one interval at 0.5 rad/s: \(jumpMarked)")
    }

    @Test("tilt replay says how many gaps it did not fuse across")
    func replayCountsGaps() async throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var text = "t,gyr_x,gyr_y,gyr_z,acc_x,acc_y,acc_z\n"
        for s in turning(from: 43, count: 50) { text += "\(s.time),0,0,0.5,0,0,9.81\n" }
        text += "# gap count=10; first=43.5; last=43.59\n"
        for s in turning(from: 43.6, count: 50) { text += "\(s.time),0,0,0.5,0,0,9.81\n" }
        for s in turning(from: 20, count: 50) { text += "\(s.time),0,0,0.5,0,0,9.81\n" }
        let log = dir.appendingPathComponent("gaps.csv").path
        try text.write(toFile: log, atomically: true, encoding: .utf8)
        let summary = try await PipelineReplay(log: log, speed: 1000, rate: 5).run { _ in
        } report: { _ in
        }
        #expect(summary.fused == 150)
        #expect(summary.gaps == 2)
        #expect(summary.text == "replayed 150 samples, skipped 0 bad rows, 2 gaps not fused across")
    }

    @Test("recording into the log the daemon replays is refused, through a link too; another file is not")
    func refusalOfTheReplayedLog() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = dir.appendingPathComponent("src.csv").path
        try "t,gyr_x,gyr_y,gyr_z,acc_x,acc_y,acc_z\n".write(toFile: source, atomically: true, encoding: .utf8)
        let link = dir.appendingPathComponent("link.csv").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: source)
        let hello = ServerMessage.Hello(
            protocol: 1, daemon: "tiltd 0.1.0",
            sensors: [
                WireSensor(
                    SensorDescription(name: "replay", kinds: ["accel"], location: source, rateHz: 100, mode: "replay"))
            ],
            power: WirePower(.mains))
        #expect(Recording.refusal(hello: hello, output: source)?.kind == .outputIsReplayedLog)
        #expect(Recording.refusal(hello: hello, output: link)?.kind == .outputIsReplayedLog)
        #expect(Recording.refusal(hello: hello, output: dir.appendingPathComponent("new.csv").path) == nil)
    }
}
