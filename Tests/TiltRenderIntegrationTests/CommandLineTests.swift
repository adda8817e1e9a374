import Foundation
import Testing
import TiltRenderTestKit
import TiltTestKit

/// The built `tiltfx` binary: exit codes and messages people act on.
@Suite(.serialized) struct CommandLineTests {
    @Test func unknownPresetExitsNonZeroListingTheAvailableOnes() throws {
        let r = try TiltFXProcess.run([
            "render", "--presets", GLTestEnvironment.presetsDirectory, "--preset", "glitter", "--out", "/tmp/x.png",
        ])
        #expect(r.status != 0)
        #expect(r.stderr.contains("unknown preset 'glitter'"))
        for name in ["holo-card", "tilt-specular", "foil", "parallax"] { #expect(r.stderr.contains(name)) }
    }

    @Test func brokenShaderExitsNonZeroNamingFileAndLine() throws {
        let copy = try GLTestEnvironment.copyPreset("tilt-specular")
        let shader = copy.directory + "/specular.glsl"
        var lines = try String(contentsOfFile: shader, encoding: .utf8).components(separatedBy: "\n")
        let broken = lines.firstIndex { $0.contains("float g = exp") }!
        lines[broken] = "    float g = exp(-0.5 * dot(d, d)) + undefinedThing;"
        try lines.joined(separator: "\n").write(toFile: shader, atomically: true, encoding: .utf8)
        let out = copy.root + "/out.png"
        let r = try TiltFXProcess.run([
            "render", "--presets", copy.root, "--preset", "tilt-specular", "--size", "32x32", "--out", out,
        ])
        #expect(r.status != 0)
        #expect(r.stderr.contains("\(shader):\(broken + 1):"), "stderr: \(r.stderr)")
        #expect(r.stderr.contains("undefinedThing"))
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func renderWritesADeterministicPNG() throws {
        let dir = TestPaths.temporaryDirectory("tiltfx")
        var outputs: [Data] = []
        for i in 0..<2 {
            let out = dir.appendingPathComponent("card\(i).png").path
            let r = try TiltFXProcess.run([
                "render", "--presets", GLTestEnvironment.presetsDirectory, "--preset", "holo-card", "--tilt",
                "0.2,-0.1", "--time", "0.5", "--size", "48x64", "--out", out,
            ])
            #expect(r.status == 0, "stderr: \(r.stderr)")
            outputs.append(try Data(contentsOf: URL(fileURLWithPath: out)))
        }
        #expect(outputs[0] == outputs[1])
        #expect(outputs[0].prefix(4) == Data([0x89, 0x50, 0x4e, 0x47]))
    }

    @Test func missingOutputFolderSaysToCreateIt() throws {
        let folder = "/tmp/tiltfx-no-such-folder-\(getpid())"
        let r = try TiltFXProcess.run([
            "render", "--presets", GLTestEnvironment.presetsDirectory, "--preset", "foil", "--size", "16x16", "--out",
            folder + "/x.png",
        ])
        #expect(r.status != 0)
        #expect(r.stderr.contains("the folder \(folder) does not exist; create it (mkdir -p \(folder))"), "\(r.stderr)")
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "needs /dev/full"))
    func fullDiskSaysSo() throws {
        let r = try TiltFXProcess.run([
            "render", "--presets", GLTestEnvironment.presetsDirectory, "--preset", "foil", "--size", "16x16", "--out",
            "/dev/full",
        ])
        #expect(r.status != 0)
        #expect(r.stderr.contains("disk is full"), "stderr: \(r.stderr)")
    }

    @Test func heldTiltSequenceNeedsNoDaemonAndEachFrameIsTheStillAtItsTime() throws {
        // No tiltd here: `--frames` with `--tilt` holds the tilt while the effect's time runs.
        let dir = TestPaths.temporaryDirectory("tiltfx")
        let frames = dir.appendingPathComponent("frames").path
        let r = try TiltFXProcess.run(
            [
                "render", "--presets", GLTestEnvironment.presetsDirectory, "--preset", "holo-card", "--tilt",
                "0.2,-0.1",
                "--frames", "3", "--fps", "10", "--size", "48x64", "--out", frames,
            ],
            environment: ["TILTD_SOCKET": dir.appendingPathComponent("no-tiltd.sock").path])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        var sequence: [Data] = []
        for i in 0..<3 {
            let frame = try Data(contentsOf: URL(fileURLWithPath: frames + "/frame-0000\(i).png"))
            sequence.append(frame)
            let still = dir.appendingPathComponent("still\(i).png").path
            let s = try TiltFXProcess.run([
                "render", "--presets", GLTestEnvironment.presetsDirectory, "--preset", "holo-card", "--tilt",
                "0.2,-0.1",
                "--time", "\(Double(i) / 10)", "--size", "48x64", "--out", still,
            ])
            #expect(s.status == 0, "stderr: \(s.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: still)) == frame, "frame \(i)")
        }
        // The effect's time runs: the frames are not all one picture.
        #expect(sequence[0] != sequence[2])
    }

    @Test func aShorterSequenceIntoAnEarlierOnesFolderKeepsItsFramesAndSaysSo() throws {
        let dir = TestPaths.temporaryDirectory("tiltfx")
        let frames = dir.appendingPathComponent("frames").path
        for count in ["4", "2"] {
            let r = try TiltFXProcess.run([
                "render", "--presets", GLTestEnvironment.presetsDirectory, "--preset", "foil", "--tilt", "0.1,0",
                "--frames", count, "--size", "16x16", "--out", frames,
            ])
            #expect(r.status == 0, "stderr: \(r.stderr)")
            #expect(
                r.stderr.contains("still holds frame-00002.png to frame-00003.png from an earlier render")
                    == (count == "2"),
                "stderr: \(r.stderr)")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: frames).sorted()
        #expect(names == (0..<4).map { "frame-0000\($0).png" })
    }

    @Test func heldTiltAndAReplayAreRefusedTogether() throws {
        let r = try TiltFXProcess.run([
            "render", "--presets", GLTestEnvironment.presetsDirectory, "--preset", "foil", "--tilt", "0.1,0",
            "--frames",
            "2", "--replay", "log.csv", "--out", "/tmp/x",
        ])
        #expect(r.status == 64)
        #expect(r.stderr.contains("--tilt holds the tilt still and --replay drives it; give one of them"))
    }

    @Test func missingReplayLogExitsNonZero() throws {
        let dir = TestPaths.temporaryDirectory("tiltfx")
        let r = try TiltFXProcess.run([
            "render", "--presets", GLTestEnvironment.presetsDirectory, "--preset", "foil", "--size", "16x16",
            "--frames", "2", "--replay", "/nonexistent/log.csv", "--out", dir.path,
        ])
        #expect(r.status != 0)
        #expect(r.stderr.contains("/nonexistent/log.csv"))
    }

    @Test func replayRendersNumberedFrames() throws {
        let dir = TestPaths.temporaryDirectory("tiltfx")
        let r = try TiltFXProcess.run([
            "render", "--presets", GLTestEnvironment.presetsDirectory, "--preset", "tilt-specular", "--size", "24x24",
            "--frames", "3", "--fps", "10", "--replay", TestPaths.broadExcerpt, "--out", dir.path,
        ])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        for i in 0..<3 {
            #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("frame-0000\(i).png").path))
        }
    }

    @Test func presetsListsEachWithADescription() throws {
        let r = try TiltFXProcess.run(["presets", "--presets", GLTestEnvironment.presetsDirectory])
        #expect(r.status == 0)
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count >= 5)
        #expect(lines.contains { $0.hasPrefix("holo-card") && $0.contains("foil") })
    }

    @Test func helpExplainsRender() throws {
        let r = try TiltFXProcess.run(["render", "--help"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("--tilt") && r.stdout.contains("--frames") && r.stdout.contains("--watch"))
    }
}
