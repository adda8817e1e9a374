import Foundation
import Testing
import TiltRenderTestKit
import TiltTestKit

/// `tiltfx bench` into a pipe: each result reaches the reader as it is measured, not when the run ends.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct BenchOutputTests {
    @Test("each line arrives as it is measured, not when the bench ends")
    func benchStreamsIntoAPipe() throws {
        _ = GLTestEnvironment.configured
        let bench = try BackgroundProcess(
            TestPaths.executable("tiltfx"),
            [
                "bench", "--presets", GLTestEnvironment.presetsDirectory, "--preset", "foil", "--size", "16x16",
                "--size", "24x24", "--size", "32x32", "--seconds", "1.5",
            ])
        defer { bench.kill() }
        // A block buffer held every line until the process ended; now the renderer line comes before three sizes
        // are measured for 1.5 s each.
        try #require(eventually(timeout: 20) { !bench.stdoutLines.isEmpty }, "stderr: \(bench.stderr)")
        let firstLine = Date()
        #expect(eventually(timeout: 30) { !bench.process.isRunning })
        #expect(Date().timeIntervalSince(firstLine) > 2, "the first line came only as the bench ended")
        #expect(bench.stdoutLines.first?.hasPrefix("renderer: ") == true, "\(bench.stdout)")
        #expect(bench.stdoutLines.count == 4, "\(bench.stdout)")
    }
}
