import Foundation
import Synchronization
import Testing
import TiltCore
import TiltFusion
import TiltSensors
import TiltTestKit
import TiltTools

/// `tilt replay`'s schedule and pipeline, and `tilt fuse`'s rows, without the binary.
@Suite
struct ReplayAndFuseTests {
    @Test("the replay schedule: a frame every period of log time, restarted after a gap")
    func schedule() {
        var schedule = ReplaySchedule(rate: 4)
        let times = stride(from: 0.0, to: 2, by: 0.125).map { $0 } + [5.0, 5.125, 5.25]
        let shown = times.filter { schedule.isDue($0) }
        #expect(shown == [0, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 5, 5.25])
    }

    @Test("a replay hands out frames at the rate of log time and reports a bad row")
    func replay() async throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var text = "t,gyr_x,gyr_y,gyr_z,acc_x,acc_y,acc_z\n"
        for i in 0..<200 {
            text += i == 50 ? "\(Double(i) * 0.01),0.1,x,0,0,0,9.81\n" : "\(Double(i) * 0.01),0,0,0.5,0,0,9.81\n"
        }
        let log = dir.appendingPathComponent("spin.csv").path
        try text.write(toFile: log, atomically: true, encoding: .utf8)
        let frames = Counter()
        let lines = Counter()
        let summary = try await PipelineReplay(log: log, speed: 50, rate: 5).run { _ in
            frames.add()
        } report: { line in
            if line.contains("spin.csv:52") { lines.add() }
        }
        #expect((9...11).contains(frames.value), "2 s at 5 Hz gave \(frames.value)")
        #expect(lines.value == 1)
        #expect(summary.text == "replayed 199 samples, skipped 1 bad rows")
    }

    @Test("fuse: the header and one row of 22 columns per sample, in chunks")
    func fuse() throws {
        let samples = CalibrationFixtures.samples(duration: 1) { _ in (.zero, Vector3(0, 0, standardGravity), nil) }
        var out = ""
        try FusedCSV.fuse(samples, useMagnetometer: true, name: "fuse:test") { out += $0 }
        let rows = out.split(separator: "\n")
        #expect(rows.first.map(String.init) == String(FusedCSV.header.dropLast()))
        #expect(rows.count == samples.count + 1)
        #expect(rows.dropFirst().allSatisfy { $0.split(separator: ",").count == 22 })
        #expect(rows[1].hasPrefix("0.0,"))
    }
}

/// A count that `@Sendable` closures add to.
final class Counter: Sendable {
    private let count = Mutex(0)
    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
