import Foundation
import Testing
import TiltTestKit

/// `tilt replay`: a log through the daemon's pipeline in-process, at a (sped-up) recorded pace.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct ReplayCommandTests {
    private func tilt(_ arguments: [String]) throws -> ChildProcess {
        try ChildProcess.run(TestPaths.executable("tilt"), arguments)
    }

    @Test("frames at the asked rate of log time; a bad row is skipped and named")
    func replaysAtRateAndSkipsBadRows() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var text = "t,gyr_x,gyr_y,gyr_z,acc_x,acc_y,acc_z\n"
        for i in 0..<400 {  // 4 s at 100 Hz, rotating about z at 0.5 rad/s
            text += i == 150 ? "\(Double(i) * 0.01),0.1,x,0,0,0,9.81\n" : "\(Double(i) * 0.01),0,0,0.5,0,0,9.81\n"
        }
        let log = dir.appendingPathComponent("spin.csv").path
        try text.write(toFile: log, atomically: true, encoding: .utf8)

        let result = try tilt(["replay", log, "--speed", "50", "--rate", "5", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let frames = result.stdout.split(separator: "\n").compactMap { LineSocket.parse(String($0)) }
        #expect((19...21).contains(frames.count), "4 s of log at 5 Hz gave \(frames.count) frames")
        #expect(frames.allSatisfy { $0["class"] as? String == "attitude" })
        #expect(result.stderr.contains("spin.csv:152"), "the bad row is named by file and line: \(result.stderr)")
        #expect(result.stderr.contains("replayed 399 samples, skipped 1 bad rows"), "\(result.stderr)")
        // Yaw follows the rotation: 0.5 rad/s for ~4 s.
        let yaw = try #require((frames.last?["euler"] as? [String: Any])?["yaw"] as? Double)
        #expect(abs(yaw - 0.5 * 3.99) < 0.1, "yaw \(yaw)")
    }

    @Test func missingLogIsAClearError() throws {
        let result = try tilt(["replay", "/nonexistent/log.csv"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("/nonexistent/log.csv"), "\(result.stderr)")
    }
}
