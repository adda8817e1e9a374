import Foundation
import Testing
import TiltTestKit

/// `tiltfx run --headless` under a service manager: SIGTERM and SIGINT end the run normally, with its statistics.
@Suite(.serialized)
struct HeadlessSignalTests {
    @Test(arguments: [SIGTERM, SIGINT])
    func aSignalEndsTheRunWithItsStatistics(signal: Int32) throws {
        _ = GLTestEnvironment.configured
        let run = try BackgroundProcess(
            TestPaths.executable("tiltfx"),
            [
                "run", "--headless", "--stats", "--presets", GLTestEnvironment.presetsDirectory, "--preset",
                "tilt-specular", "--size", "32x32", "--seconds", "120", "--socket",
                "/tmp/tiltfx-signal-\(getpid()).sock",
            ])
        // The first mode line is printed once the loop runs (and the signals are watched before it starts).
        try #require(waitUntil(timeout: 30) { run.stdout.contains("\"mode\"") }, "stdout: \(run.stdout)")
        #expect(run.kill(signal, timeout: 30), "the run ended on the signal")
        #expect(run.process.terminationReason == .exit)
        #expect(run.process.terminationStatus == 0, "stderr: \(run.stderr)")
        let last = run.stdoutLines.last ?? ""
        #expect(last.contains("\"drawn\""), "the statistics line comes last: \(run.stdout)")
    }
}
