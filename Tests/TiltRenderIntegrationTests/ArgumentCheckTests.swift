import Foundation
import Testing
import TiltRenderTestKit
import TiltTestKit

/// The built `tiltfx` given out-of-range or misnamed arguments: exit status 64 and a message that says what is
/// allowed, before any rendering; negative numbers taken as typed; missing files exit 1 without the usage.
@Suite(.serialized) struct ArgumentCheckTests {
    static func render(_ arguments: [String]) throws -> TiltFXProcess {
        try TiltFXProcess.run(
            ["render", "--presets", GLTestEnvironment.presetsDirectory, "--preset", "foil", "--size", "16x16"]
                + arguments)
    }

    @Test func aNegativeTiltIsTakenAsTyped() throws {
        let out = TestPaths.temporaryDirectory("tiltfx").appendingPathComponent("neg.png").path
        let r = try Self.render(["--tilt", "-0.3,0.1", "--time", "-1", "--out", out])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(FileManager.default.fileExists(atPath: out))
    }

    @Test(arguments: [
        (
            ["render", "--tilt=1e9,0", "--out", "/tmp/x.png"],
            "error: --tilt 1000000000.0,0.0: X and Y must each be from -π to π"
        ),
        (
            ["render", "--tilt", "nan,0", "--out", "/tmp/x.png"],
            "error: --tilt nan,0.0: X and Y must each be from -π to π"
        ),
        (
            ["render", "--out", "/tmp/a.jpg"],
            "error: --out /tmp/a.jpg: tiltfx writes PNG only; name the file with .png, e.g. a.png"
        ),
        (["run", "--headless", "--fps", "1e9"], "error: --fps must be more than 0 and at most 1000"),
        (["run", "--headless", "--fps", "-5"], "error: --fps must be more than 0 and at most 1000"),
        (["bench", "--seconds", "0"], "error: --seconds must be a positive number"),
        (["bench", "--seconds", "-1"], "error: --seconds must be a positive number"),
    ])
    func outOfRangeIsAUsageError(arguments: [String], expected: String) throws {
        let command = arguments[0]
        let rest = Array(arguments.dropFirst())
        let r =
            command == "render"
            ? try Self.render(rest)
            : try TiltFXProcess.run(
                [command, "--presets", GLTestEnvironment.presetsDirectory, "--preset", "foil"] + rest)
        #expect(r.status == 64, "stderr: \(r.stderr)")
        #expect(r.stderr.hasPrefix(expected), "stderr: \(r.stderr)")
    }

    @Test func aMissingReplayLogIsNoUsageError() throws {
        let dir = TestPaths.temporaryDirectory("tiltfx")
        let r = try Self.render(["--frames", "2", "--replay", "/nonexistent/log.csv", "--out", dir.path])
        #expect(r.status == 1, "stderr: \(r.stderr)")
        #expect(r.stderr.hasPrefix("error: ") && r.stderr.contains("/nonexistent/log.csv"), "stderr: \(r.stderr)")
        #expect(!r.stderr.contains("Usage:") && !r.stderr.contains("USAGE"), "stderr: \(r.stderr)")
    }

    @Test(arguments: [
        ["render", "--preset", "foil", "--out", "/tmp/x.png"], ["run", "--headless", "--preset", "foil"], ["presets"],
        ["bench"],
    ])
    func aMissingPresetsFolderIsNamed(arguments: [String]) throws {
        let missing = "/nonexistent-\(getpid())/presets"
        let r = try TiltFXProcess.run(arguments + ["--presets", missing])
        #expect(r.status == 1, "stderr: \(r.stderr)")
        #expect(r.stderr.hasPrefix("error: --presets \(missing): no such folder"), "stderr: \(r.stderr)")
    }

    @Test func aMisspeltPresetKeyIsNamedWithTheFile() throws {
        let copy = try GLTestEnvironment.copyPreset("foil")
        let file = copy.directory + "/preset.json"
        let json = try String(contentsOfFile: file, encoding: .utf8)
        try json.replacingOccurrences(of: "\"arguments\"", with: "\"argumnets\"").write(
            toFile: file, atomically: true, encoding: .utf8)
        let r = try TiltFXProcess.run([
            "render", "--presets", copy.root, "--preset", "foil", "--size", "16x16", "--out", copy.root + "/x.png",
        ])
        #expect(r.status == 1, "stderr: \(r.stderr)")
        #expect(
            r.stderr.contains("error: \(file): effects[0]: unknown key 'argumnets' (known: "), "stderr: \(r.stderr)")
    }
}
