import Foundation
import Testing
import TiltRenderTestKit
import TiltTestKit

/// `tiltfx render --replay` with a damaged log: the bad-row policy of every log reader (skip and count, `--strict`
/// stops), and a truncated log as an error (docs/log-format.md, "Bad rows and bad files").
@Suite(.serialized) struct ReplayDamageTests {
    private func render(_ log: String, into dir: URL, _ extra: [String] = []) throws -> TiltFXProcess {
        try TiltFXProcess.run(
            [
                "render", "--presets", GLTestEnvironment.presetsDirectory, "--preset", "tilt-specular", "--size",
                "16x16", "--frames", "2", "--fps", "10", "--replay", log, "--out", dir.path,
            ] + extra)
    }

    @Test func badRowsAreSkippedAndCounted() throws {
        let dir = TestPaths.temporaryDirectory("tiltfx")
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = try BadLogs.withBadRows(in: dir)
        let r = try render(log, into: dir)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("skipped: \(log):\(BadLogs.nanLine) (column gyr_y)"), "stderr: \(r.stderr)")
        #expect(r.stderr.contains("skipped 2 bad rows of \(log)"), "stderr: \(r.stderr)")
    }

    @Test func strictStopsAtTheFirstBadRow() throws {
        let dir = TestPaths.temporaryDirectory("tiltfx")
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = try BadLogs.withBadRows(in: dir)
        let r = try render(log, into: dir, ["--strict"])
        #expect(r.status != 0)
        #expect(r.stderr.contains("\(log):\(BadLogs.nanLine) (column gyr_y)"), "stderr: \(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("frame-00000.png").path))
    }

    @Test func aTruncatedLogIsAnError() throws {
        let dir = TestPaths.temporaryDirectory("tiltfx")
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = try BadLogs.truncatedExcerpt(keeping: BadLogs.excerptCuts[1].bytes, in: dir)
        let r = try render(log, into: dir)
        #expect(r.status != 0)
        #expect(r.stderr.contains("truncated at row"), "stderr: \(r.stderr)")
    }

    @Test func strictWithoutReplayIsAUsageError() throws {
        let r = try TiltFXProcess.run([
            "render", "--presets", GLTestEnvironment.presetsDirectory, "--preset", "foil", "--out", "/tmp/x.png",
            "--strict",
        ])
        #expect(r.status != 0)
        #expect(r.stderr.contains("--strict"), "stderr: \(r.stderr)")
    }
}
