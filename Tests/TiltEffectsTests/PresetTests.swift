import Foundation
import Testing

@testable import TiltEffects

/// Preset files: parsing, actionable errors, and the search for preset folders.
@Suite struct PresetTests {
    static let repositoryPresets = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Presets").path

    func temporaryPreset(_ json: String, files: [String: String] = ["a.glsl": "// a\n"]) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tilt-preset-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try json.write(to: dir.appendingPathComponent("preset.json"), atomically: true, encoding: .utf8)
        for (name, text) in files {
            try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return dir.path
    }

    @Test func everyRepositoryPresetLoads() throws {
        let library = PresetLibrary(searchPaths: [Self.repositoryPresets])
        let names = library.names
        for expected in ["tilt-specular", "holo-card", "foil", "parallax", "shadertoy-plasma", "misty-glass"] {
            #expect(names.contains(expected))
        }
        for name in names {
            let preset = try library.load(name)
            #expect(!preset.description.isEmpty, "\(name) needs a one-line description")
            #expect(!PassPlanner.plan(preset).isEmpty)
        }
    }

    @Test func unknownPresetListsTheAvailableOnes() throws {
        let library = PresetLibrary(searchPaths: [Self.repositoryPresets])
        let error = try #require(throws: PresetError.self) { try library.load("no-such-preset") }
        #expect(error.kind == .unknownPreset)
        #expect(error.availablePresets.contains("holo-card") && error.availablePresets.contains("tilt-specular"))
        let text = "\(error)"
        #expect(
            text.contains("unknown preset 'no-such-preset'") && text.contains("holo-card")
                && text.contains("tilt-specular"), "\(text)")
    }

    @Test func argumentsParseBindingsAndConstants() throws {
        let dir = try temporaryPreset(
            """
            { "description": "d", "effects": [ { "kind": "color", "function": "f", "file": "a.glsl", "arguments": [
              { "name": "t", "type": "vec2", "bind": "tilt" }, { "name": "c", "type": "color", "value": "#ff8000" },
              { "name": "k", "type": "float[3]", "value": [1, 2, 3] } ] } ] }
            """)
        let preset = try Preset.load(directory: dir)
        let args = preset.effects[0].arguments
        #expect(args[0].binding == .tilt)
        #expect(args[1].binding == .constant([1, 128.0 / 255, 0, 1]))
        #expect(args[2].type == .floatArray(count: 3))
    }

    @Test(arguments: [
        (#"{"effects":[{"kind":"shiny","function":"f","file":"a.glsl"}]}"#, "effects[0].kind"),
        (
            #"{"effects":[{"kind":"color","function":"f","file":"a.glsl","arguments":[{"type":"vec3","bind":"tilt"}]}]}"#,
            "effects[0].arguments[0].type: 'tilt' is a vec2"
        ),
        (
            #"{"effects":[{"kind":"color","function":"f","file":"a.glsl","arguments":[{"type":"vec2","bind":"wobble"}]}]}"#,
            "effects[0].arguments[0].bind"
        ),
        (#"{"effects":[{"kind":"color","function":"f","file":"missing.glsl"}]}"#, "'missing.glsl' not found"),
        (#"{"effects":[{"kind":"color","file":"a.glsl"}]}"#, "missing key 'function'"),
        (#"{"effects":[]}"#, "at least one effect"),
    ])
    func badPresetFilesNameTheField(json: String, expected: String) throws {
        let dir = try temporaryPreset(json)
        let error = try #require(throws: PresetError.self) { try Preset.load(directory: dir) }
        #expect(error.kind == .invalid)
        #expect(error.path == dir + "/preset.json")
        #expect("\(error)".contains(expected) && "\(error)".contains("preset.json"), "\(error)")
    }

    @Test func aSyntaxErrorNamesItsLineAndColumn() throws {
        let dir = try temporaryPreset(
            """
            {
              "description": "d",
              "effects": [ { "kind": "color" "function": "f", "file": "a.glsl" } ]
            }
            """)
        let file = dir + "/preset.json"
        let error = try #require(throws: PresetError.self) { try Preset.load(directory: dir) }
        #expect(error.kind == .syntax)
        #expect(error.syntaxPosition?.line == 3 && error.syntaxPosition?.column == 34)
        #expect("\(error)".hasPrefix("\(file): line 3, column 34: not valid JSON"), "\(error)")
    }

    @Test func aTextThatEndsEarlyPointsAtItsEnd() throws {
        let dir = try temporaryPreset("{\n  \"effects\": [\n")
        let error = try #require(throws: PresetError.self) { try Preset.load(directory: dir) }
        #expect(error.kind == .syntax)
        #expect("\(error)".hasPrefix("\(dir)/preset.json: line 3, column 1: not valid JSON"), "\(error)")
    }

    @Test(arguments: [
        (#"{"description": "d", "efects": []}"#, "(top level): unknown key 'efects' (known: description, shadertoy"),
        (
            #"{"effects":[{"kind":"color","function":"f","file":"a.glsl","argumnets":[]}]}"#,
            "effects[0]: unknown key 'argumnets' (known: kind, function, file, arguments, maxSampleOffset, stateful, content, bake, blur)"
        ),
        (
            #"{"effects":[{"kind":"color","function":"f","file":"a.glsl","arguments":[{"type":"vec2","bnd":"tilt"}]}]}"#,
            "effects[0].arguments[0]: unknown key 'bnd' (known: name, type, bind, value, texture)"
        ),
        (
            #"{"effects":[{"kind":"color","function":"f","file":"a.glsl"}],"power":{"batery":"full"}}"#,
            "power: unknown key 'batery' (known: mains, battery, lowPower, lowBatteryPercent)"
        ),
    ])
    func unknownKeysAreRefusedAtEveryLevel(json: String, expected: String) throws {
        let dir = try temporaryPreset(json)
        let error = try #require(throws: PresetError.self) { try Preset.load(directory: dir) }
        #expect(error.kind == .invalid)
        #expect("\(error)".hasPrefix("\(dir)/preset.json: \(expected)"), "\(error)")
    }

    @Test func aPositionCountsLinesAndCharacters() {
        let text = Data("{\n  \"é\": x\n}".utf8)
        #expect("\(JSONTextPosition(offset: 0, in: text))" == "1:1")
        #expect("\(JSONTextPosition(offset: 2, in: text))" == "2:1")
        // "é" is two bytes and one column.
        #expect("\(JSONTextPosition(offset: 10, in: text))" == "2:8")
        #expect("\(JSONTextPosition(offset: 99, in: text))" == "3:2")
    }

    @Test func searchOrderPutsExplicitFolderAndEnvironmentFirst() {
        let library = PresetLibrary.standard(
            explicit: "/opt/mine", environment: ["TILT_PRESETS": "/a:/b"], executablePath: "/nonexistent/bin/tiltfx",
            workingDirectory: "/")
        #expect(Array(library.searchPaths.prefix(3)) == ["/opt/mine", "/a", "/b"])
        #expect(library.searchPaths.last == "/usr/share/tilt/presets")
    }

    @Test("an install under any prefix is found from the program's path, then XDG_DATA_DIRS; a clone's comes first")
    func installedPresetsAreFoundAfterTheClone() throws {
        let prefix = FileManager.default.temporaryDirectory.appendingPathComponent("tilt-prefix-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: prefix) }
        let installed = prefix.appendingPathComponent("share/tilt/presets")
        let preset = try temporaryPreset(#"{"effects": []}"#)
        try FileManager.default.createDirectory(at: installed, withIntermediateDirectories: true)
        try FileManager.default.moveItem(
            atPath: preset, toPath: installed.appendingPathComponent("only-installed").path)
        let library = PresetLibrary.standard(
            environment: ["XDG_DATA_DIRS": "/xdg/one:/xdg/two"],
            executablePath: prefix.appendingPathComponent("bin/tiltfx").path, workingDirectory: "/")
        #expect(library.searchPaths == [installed.path, "/xdg/one/tilt/presets", "/xdg/two/tilt/presets"])
        #expect(try library.directory(of: "only-installed") == installed.appendingPathComponent("only-installed").path)

        let clone = PresetLibrary.standard(
            environment: [:],
            executablePath: URL(fileURLWithPath: Self.repositoryPresets).deletingLastPathComponent()
                .appendingPathComponent(".build/release/tiltfx").path,
            workingDirectory: "/")
        #expect(clone.searchPaths.first == Self.repositoryPresets)
        #expect(Array(clone.searchPaths.suffix(2)) == ["/usr/local/share/tilt/presets", "/usr/share/tilt/presets"])
    }
}

/// A path that is not a preset says what a preset needs, not only "unknown preset".
@Suite struct NotAPresetTests {
    @Test("a GLSL file or a folder without preset.json is .notAPreset, pointing to {\"shadertoy\": …}")
    func notAPreset() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("notapreset-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let shader = dir.appendingPathComponent("rings.glsl").path
        try "void mainImage(out vec4 c, in vec2 p) { c = vec4(1); }\n".write(
            toFile: shader, atomically: true, encoding: .utf8)
        let library = PresetLibrary(searchPaths: [])
        for (path, words) in [
            (
                shader,
                #"a preset is a folder; put rings.glsl in a folder with a preset.json of {"shadertoy": "rings.glsl"}"#
            ),
            (dir.path, #"the folder has no preset.json; a preset folder holds a preset.json"#),
        ] {
            do {
                _ = try library.load(path)
                Issue.record("\(path) loaded")
            } catch {
                #expect(error.kind == .notAPreset)
                #expect(error.description.hasPrefix("\(path) is not a preset: "), "\(error)")
                #expect(error.description.contains(words), "\(error)")
            }
        }
        do {
            _ = try library.load("no-such-preset-\(getpid())")
            Issue.record("an unknown name loaded")
        } catch {
            #expect(error.kind == .unknownPreset)
        }
    }
}
