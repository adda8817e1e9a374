import Foundation
import Testing
import TiltRenderTestKit
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
        try #require(eventually(timeout: 30) { run.stdout.contains("\"mode\"") }, "stdout: \(run.stdout)")
        #expect(run.kill(signal, timeout: 30), "the run ended on the signal")
        #expect(run.process.terminationReason == .exit)
        #expect(run.process.terminationStatus == 0, "stderr: \(run.stderr)")
        // The statistics, then what was measured from motion to swap, end the output.
        let lines = run.stdoutLines
        #expect(lines.dropLast().last?.contains("\"class\":\"stats\"") == true, "statistics: \(run.stdout)")
        #expect(lines.last?.contains("\"class\":\"latency\"") == true, "latency comes last: \(run.stdout)")
    }

    @Test("run --headless --stats | head -1: the run ends by SIGPIPE once its reader leaves, not at its end")
    func statsIntoAClosedPipeEndTheRun() throws {
        let r = try ClosingReader.run(
            TestPaths.executable("tiltfx"),
            [
                "run", "--headless", "--presets", GLTestEnvironment.presetsDirectory, "--preset", "tilt-specular",
                "--stats", "--socket", TestPaths.temporaryDirectory("nopipe").appendingPathComponent("none.sock").path,
            ],
            lines: 1, environment: ["EGL_PLATFORM": "surfaceless", "LIBGL_ALWAYS_SOFTWARE": "1"])
        #expect(r.lines.first?.contains("\"class\":\"mode\"") == true, "\(r.lines)")
        #expect(r.endedBySIGPIPE, "ended by \(r.ending)")
    }
}
