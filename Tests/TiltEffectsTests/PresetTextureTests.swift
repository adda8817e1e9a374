import Foundation
import Testing
import TiltEffects

/// `"textures"` in preset.json, `"type": "texture"` arguments, and `"content"` effects a picture replaces.
@Suite struct PresetTextureTests {
    /// A preset folder holding `json`, `a.glsl` and a (not decoded here) `mask.png`.
    func preset(_ json: String) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tilt-texture-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try json.write(to: dir.appendingPathComponent("preset.json"), atomically: true, encoding: .utf8)
        try "// a\n".write(to: dir.appendingPathComponent("a.glsl"), atomically: true, encoding: .utf8)
        try Data([0x89, 0x50]).write(to: dir.appendingPathComponent("mask.png"))
        return dir.path
    }

    static let maskEffect = """
        "effects": [{ "kind": "color", "function": "tint", "file": "a.glsl",
          "arguments": [{ "name": "m", "type": "texture", "texture": "mask" }] }]
        """

    @Test func texturesAreDeclaredWithFileFilterAndWrapAndWatched() throws {
        let dir = try preset(
            #"{"textures": {"mask": {"file": "mask.png", "filter": "nearest", "wrap": "mirror"}, "opt": {}}, "#
                + Self.maskEffect + "}")
        let loaded = try Preset.load(directory: dir)
        #expect(loaded.textures.map(\.name) == ["mask", "opt"])
        #expect(loaded.textures[0].file == dir + "/mask.png")
        #expect(loaded.textures[0].filter == .nearest && loaded.textures[0].wrap == .mirror)
        #expect(
            loaded.textures[1].file == nil && loaded.textures[1].filter == .linear && loaded.textures[1].wrap == .clamp)
        #expect(loaded.files.contains(dir + "/mask.png"))
        let argument = try #require(loaded.effects.first?.arguments.first)
        #expect(argument.type == .texture && argument.binding == .texture("mask"))
        let shader = try ShaderGenerator.generate(pass: PassPlanner.plan(loaded)[0], preset: loaded)
        #expect(shader.fragmentSource.contains("uniform sampler2D tilt_texture_mask;"))
        #expect(shader.fragmentSource.contains("tint(p, tilt_stage0(p), tilt_texture_mask)"))
        // Compile-time switches: a texture with a file is defined, one without is not; no picture, no TILT_PICTURE.
        #expect(shader.fragmentSource.contains("#define TILT_TEXTURE_mask 1\n"))
        #expect(!shader.fragmentSource.contains("TILT_TEXTURE_opt"))
        #expect(!shader.fragmentSource.contains("TILT_PICTURE"))
    }

    @Test func anUndeclaredTextureNameIsRefusedNamingEffectAndArgument() throws {
        let dir = try preset(#"{"textures": {"other": {"file": "mask.png"}}, "# + Self.maskEffect + "}")
        let error = try #require(throws: PresetError.self) { try Preset.load(directory: dir) }
        #expect(error.kind == .invalid)
        #expect(error.field == "effects[0].arguments[0].texture")
        let text = "\(error)"
        #expect(text.contains("effects[0].arguments[0].texture"))
        #expect(text.contains("effect 'tint' argument 'm' samples texture 'mask', which no entry of \"textures\""))
        #expect(text.contains("(declared: other)"))
    }

    @Test(arguments: [
        (#"{"mask": {"file": "nope.png"}}"#, "textures.mask.file: texture file 'nope.png' not found"),
        (#"{"mask": {"file": "mask.png", "filter": "cubic"}}"#, "'cubic' is not one of nearest, linear, mipmap"),
        (#"{"mask": {"file": "mask.png", "wrap": "tile"}}"#, "'tile' is not one of clamp, repeat, mirror"),
        (#"{"mask": {"fiel": "mask.png"}}"#, "textures.mask: unknown key 'fiel' (known: file, filter, wrap)"),
        (#"{"9mask": {"file": "mask.png"}}"#, "'9mask' is not a GLSL identifier"),
    ])
    func badTextureEntriesSayWhatIsWrong(textures: String, expected: String) throws {
        let dir = try preset(#"{"textures": "# + textures + ", " + Self.maskEffect + "}")
        let error = try #require(throws: PresetError.self) { try Preset.load(directory: dir) }
        #expect(error.kind == .invalid)
        #expect("\(error)".contains(expected), "\(error)")
    }

    @Test func aTextureArgumentNeedsItsNameAndType() throws {
        let untyped = try preset(
            #"{"textures": {"mask": {}}, "effects": [{"kind": "color", "function": "f", "file": "a.glsl", "#
                + #""arguments": [{"type": "vec2", "texture": "mask"}]}]}"#)
        let untypedError = try #require(throws: PresetError.self) { try Preset.load(directory: untyped) }
        #expect(untypedError.kind == .invalid)
        #expect("\(untypedError)".contains("an argument with \"texture\" has type \"texture\""))
        let unnamed = try preset(
            #"{"effects": [{"kind": "color", "function": "f", "file": "a.glsl", "#
                + #""arguments": [{"type": "texture", "value": 1}]}]}"#)
        let unnamedError = try #require(throws: PresetError.self) { try Preset.load(directory: unnamed) }
        #expect(unnamedError.kind == .invalid)
        #expect("\(unnamedError)".contains("with \"texture\": \"NAME\""))
    }

    @Test func aPictureReplacesTheContentEffectsAndStartsTheFirstPass() throws {
        let dir = try preset(
            #"{"effects": [{"kind": "color", "function": "art", "file": "a.glsl", "content": true}, "#
                + #"{"kind": "color", "function": "shine", "file": "a.glsl"}]}"#)
        let loaded = try Preset.load(directory: dir)
        #expect(loaded.effects.map(\.content) == [true, false])
        let plain = PassPlanner.plan(loaded)
        #expect(plain[0].input == .transparent && plain[0].chain == [0, 1])
        let onPicture = PassPlanner.plan(loaded, picture: true)
        #expect(onPicture[0].input == .picture && onPicture[0].chain == [1])
        let shader = try ShaderGenerator.generate(pass: onPicture[0], preset: loaded, picture: true)
        #expect(shader.fragmentSource.contains("vec4 tilt_stage0(vec2 p) { return samplePicture(p); }"))
        #expect(shader.fragmentSource.hasPrefix("#version 300 es\nprecision highp float;\n#define TILT_PICTURE 1\n"))
        #expect(!shader.fragmentSource.contains("art(p"))
    }
}
