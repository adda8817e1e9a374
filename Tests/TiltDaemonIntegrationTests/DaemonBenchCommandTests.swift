import Foundation
import Testing
import TiltTestKit

/// `tilt bench daemon` end to end, small: it starts its own tiltd, serves a few clients and reports every field.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct DaemonBenchCommandTests {
    @Test("tilt bench daemon --clients 3 --seconds 1 --churn 9 reports frames, drops, CPU, RSS, latency and churn")
    func smallBenchRuns() throws {
        let result = try ChildProcess.run(
            TestPaths.executable("tilt"),
            [
                "bench", "daemon", "--clients", "3", "--seconds", "1", "--churn", "9", "--bin",
                TestPaths.binDirectory.path, "--log", TestPaths.broadExcerpt,
            ],
            timeout: 40)
        #expect(result.status == 0, "\(result.stderr)")
        let out = result.stdout
        for field in [
            "frames per client", "daemon drops", "daemon CPU", "daemon RSS", "latency sample→client", "churn 9",
        ] {
            #expect(out.contains(field), "missing '\(field)' in:\n\(out)")
        }
        // Every client got frames with mono times (latency measured), and the churned clients are all gone.
        #expect(out.contains("frames)"), "latency was measured:\n\(out)")
        #expect(!out.contains("received min 0 "), "every client got frames:\n\(out)")
        #expect(out.contains("clients left 0"), "every churned connection was cleaned up:\n\(out)")
    }
}
