import Foundation
import Testing
import TiltRender
import TiltRenderTestKit
import TiltTestKit

/// Long renders show progress on stderr (a redrawn line on a terminal, a line every few seconds elsewhere), and a
/// sequence that runs past the end of its log says so.
@Suite(.serialized) struct ProgressTests {
    /// A meter on a hand-driven clock, collecting what it writes.
    final class Harness {
        /// The clock and what was written, shared with the meter's closures.
        final class State {
            var time = 0.0
            var written: [String] = []
        }

        let state = State()
        let meter: ProgressMeter
        var time: Double {
            get { state.time }
            set { state.time = newValue }
        }
        var written: [String] { state.written }

        init(interactive: Bool) {
            let state = self.state
            meter = ProgressMeter(
                total: 10, unit: "frames", interactive: interactive, interval: 2, now: { state.time },
                write: { state.written.append($0) })
        }
    }

    @Test func elsewhereALineEveryIntervalAndNoneAtTheEnd() {
        let h = Harness(interactive: false)
        for done in 1...10 {
            h.time = Double(done) * 0.5
            h.meter.update(done: done)
        }
        #expect(
            h.written == ["4/10 frames (40 %), 2.0 s, about 3 s left\n", "8/10 frames (80 %), 4.0 s, about 1 s left\n"])
    }

    @Test func onATerminalOneLineRedrawnWithABarEndingInANewline() {
        let h = Harness(interactive: true)
        for done in 1...10 {
            h.time = Double(done) * 0.05
            h.meter.update(done: done)
        }
        #expect(h.written.count < 10, "at most ten a second: \(h.written)")
        #expect(h.written.allSatisfy { $0.hasPrefix("\r\u{1B}[K[") })
        #expect(h.written.last?.hasSuffix("10/10 frames (100 %), 0.5 s\n") == true, "\(h.written)")
        #expect(h.written.last?.contains("[########################]") == true)
    }

    @Test func anInterruptedLineIsEnded() {
        let h = Harness(interactive: true)
        h.time = 1
        h.meter.update(done: 3)
        h.meter.finish()
        #expect(h.written.last == "\n")
    }

    /// A log of the fixture's first 0.97 s (278 samples).
    static func shortLog() throws -> String {
        let dir = TestPaths.temporaryDirectory("tiltfx")
        let whole = try ChildProcess.run("/bin/sh", ["-c", "gzip -dc '\(TestPaths.broadExcerpt)' | head -n 280"])
        let path = dir.appendingPathComponent("short.csv").path
        try whole.stdout.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aSequenceShowsProgressOnAPipeAndWarnsPastTheEndOfTheLog() throws {
        let dir = TestPaths.temporaryDirectory("tiltfx")
        let log = try Self.shortLog()
        let r = try TiltFXProcess.run(
            [
                "render", "--presets", GLTestEnvironment.presetsDirectory, "--preset", "tilt-specular", "--size",
                "16x16", "--frames", "15", "--fps", "10", "--replay", log, "--out", dir.path,
            ], environment: ["TILTFX_PROGRESS_INTERVAL": "0"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("1/15 frames (6 %)") && r.stderr.contains("14/15 frames"), "stderr: \(r.stderr)")
        #expect(r.stderr.contains("--frames 15 at 10 fps needs 1.5 s of motion"), "stderr: \(r.stderr)")
        #expect(r.stderr.contains("(10 frames at this --fps): frames 10 to 14 repeat its last pose"), "\(r.stderr)")
        #expect(r.stdout.isEmpty)
    }

    @Test func aShortSequenceWithinItsLogPrintsNoProgressLinesOrWarning() throws {
        let dir = TestPaths.temporaryDirectory("tiltfx")
        let r = try TiltFXProcess.run([
            "render", "--presets", GLTestEnvironment.presetsDirectory, "--preset", "tilt-specular", "--size", "16x16",
            "--frames", "5", "--fps", "10", "--replay", try Self.shortLog(), "--out", dir.path,
        ])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(!r.stderr.contains("/5 frames") && !r.stderr.contains("last pose"), "stderr: \(r.stderr)")
    }

    @Test func aLargeStillReportsEachStage() throws {
        let out = TestPaths.temporaryDirectory("tiltfx").appendingPathComponent("large.png").path
        let r = try TiltFXProcess.run([
            "render", "--presets", GLTestEnvironment.presetsDirectory, "--preset", "foil", "--size", "2000x2000",
            "--out", out,
        ])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        for stage in ["compiling the shaders", "drawing", "reading back", "writing PNG", "wrote \(out) in"] {
            #expect(r.stderr.contains(stage), "\(stage): \(r.stderr)")
        }
    }
}
