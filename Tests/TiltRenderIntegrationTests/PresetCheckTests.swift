import Foundation
import Testing
import TiltRender
import TiltRenderTestKit
import TiltTestKit

/// `tiltfx check`: the library check and the built binary, on the repository's presets and on broken ones.
@Suite(.serialized) struct PresetCheckTests {
    /// A presets folder holding `broken`, whose preset.json names a file that is not there, and `garbled`, whose
    /// preset.json is not JSON.
    static func brokenFolder() throws -> URL {
        let presets = TestPaths.temporaryDirectory("tiltfx").appendingPathComponent("presets")
        let files = [
            "broken": #"{"effects":[{"kind":"color","function":"f","file":"nowhere.glsl"}]}"#, "garbled": "{not json",
        ]
        for (name, json) in files {
            let folder = presets.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try json.write(to: folder.appendingPathComponent("preset.json"), atomically: true, encoding: .utf8)
        }
        return presets
    }

    @Test func theRepositorysPresetsLoadAndCompile() throws {
        _ = GLTestEnvironment.configured
        let findings = PresetCheck(directory: GLTestEnvironment.presetsDirectory).run()
        #expect(PresetCheck.problems(findings) == 0, "\(findings)")
        #expect(findings.contains { $0.verdict == .ok && $0.subject == "presets" && $0.text.contains("presets load") })
        #expect(findings.contains { $0.verdict == .ok && $0.subject == "shaders" && $0.text.contains("compile") })
        #expect(PresetCheck.report(findings).hasSuffix("tiltfx check: OK"))
    }

    @Test func aShaderThatDoesNotCompileFailsNamingThePreset() throws {
        _ = GLTestEnvironment.configured
        let copy = try GLTestEnvironment.copyPreset("tilt-specular")
        let shader = copy.directory + "/specular.glsl"
        let text = try String(contentsOfFile: shader, encoding: .utf8)
        try (text + "\nvoid broken() { undefinedThing; }\n").write(toFile: shader, atomically: true, encoding: .utf8)
        let findings = PresetCheck(directory: copy.root).run()
        #expect(findings.contains { $0.verdict == .ok && $0.subject == "presets" }, "it loads: \(findings)")
        let failure = try #require(findings.first { $0.verdict == .fail })
        #expect(failure.subject == "shaders" && failure.text.hasPrefix("tilt-specular: "))
        #expect(failure.text.contains("undefinedThing"))
        #expect(PresetCheck.report(findings).hasSuffix("tiltfx check: 1 problem"))
    }

    @Test func withoutShadersOnlyTheLoadIsChecked() throws {
        let findings = PresetCheck(directory: GLTestEnvironment.presetsDirectory, compilesShaders: false).run()
        #expect(findings.first?.subject == "presets", "\(findings)")
        #expect(!findings.contains { $0.subject == "shaders" }, "\(findings)")
        // The bundled Shadertoy export says what its channels read.
        #expect(
            findings.contains(
                .init(.ok, "inputs", "toy-trail: Buffer A: iChannel0 Buffer A; Image: iChannel0 Buffer A")),
            "\(findings)")
    }

    @Test func noFolderFoundIsANoteNotAFailure() {
        let findings = PresetCheck(directory: nil, searchPaths: ["/nonexistent/presets"]).run()
        #expect(findings == [.init(.note, "presets", "no presets folder found (searched /nonexistent/presets)")])
        #expect(PresetCheck.report(findings).hasSuffix("tiltfx check: OK"))
    }

    @Test func anEmptyFolderFails() {
        let empty = TestPaths.temporaryDirectory("tiltfx").path
        let findings = PresetCheck(directory: empty).run()
        #expect(
            findings == [
                .init(
                    .fail, "presets",
                    "\(empty) holds no presets (folders with a preset.json, or Shadertoy JSON exports)")
            ])
    }

    @Test func theBinaryPassesOnTheRepositorysPresets() throws {
        let r = try TiltFXProcess.run(["check", "--presets", GLTestEnvironment.presetsDirectory])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("ok   presets: \(GLTestEnvironment.presetsDirectory): "))
        #expect(r.stdout.contains("presets load"))
        #expect(r.stdout.contains("ok   shaders: ") || r.stdout.contains("note shaders: "), "\(r.stdout)")
        #expect(r.stdout.hasSuffix("tiltfx check: OK\n"), "\(r.stdout)")
    }

    @Test func theBinaryFailsOnABrokenPresetAndAMissingFolder() throws {
        let presets = try Self.brokenFolder()
        let r = try TiltFXProcess.run(["check", "--presets", presets.path])
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("FAIL presets: broken:") && r.stdout.contains("nowhere.glsl"), "\(r.stdout)")
        let garbled = presets.appendingPathComponent("garbled/preset.json").path
        #expect(r.stdout.contains("FAIL presets: garbled: \(garbled): "), "names the file: \(r.stdout)")
        #expect(r.stdout.contains("tiltfx check: 2 problems"), "\(r.stdout)")

        let missing = presets.appendingPathComponent("nope").path
        let noFolder = try TiltFXProcess.run(["check", "--presets", missing])
        #expect(noFolder.status == 1)
        #expect(noFolder.stdout.contains("FAIL presets: \(missing) is not a folder"), "\(noFolder.stdout)")
    }

    @Test func theBinaryFailsOnAShaderThatDoesNotCompileNamingFileAndLine() throws {
        let copy = try GLTestEnvironment.copyPreset("tilt-specular")
        let shader = copy.directory + "/specular.glsl"
        var lines = try String(contentsOfFile: shader, encoding: .utf8).components(separatedBy: "\n")
        let broken = try #require(lines.firstIndex { $0.contains("float g = exp") })
        lines[broken] = "    float g = exp(-0.5 * dot(d, d)) + undefinedThing;"
        try lines.joined(separator: "\n").write(toFile: shader, atomically: true, encoding: .utf8)
        let r = try TiltFXProcess.run(["check", "--presets", copy.root])
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("ok   presets: "), "it loads: \(r.stdout)")
        #expect(r.stdout.contains("FAIL shaders: tilt-specular: "), "\(r.stdout)")
        #expect(r.stdout.contains("\(shader):\(broken + 1):") && r.stdout.contains("undefinedThing"), "\(r.stdout)")
        #expect(r.stdout.hasSuffix("tiltfx check: 1 problem\n"), "\(r.stdout)")
    }
}
