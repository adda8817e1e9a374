import Foundation
import Testing

@testable import TiltEffects

/// Shadertoy JSON exports and the object form of a preset's `shadertoy` key: the program they describe and the
/// errors that name the pass, channel and file at fault.
@Suite struct ShadertoyExportTests {
    /// A fresh folder holding `files` (name → text).
    static func folder(_ files: [String: String]) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tilt-toy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (name, text) in files {
            try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return dir
    }

    /// One render pass of an export, as JSON.
    static func pass(
        _ name: String, type: String, code: String = "void mainImage(out vec4 c, in vec2 p) {}",
        inputs: [String] = [], output: String? = nil
    ) -> String {
        let outputs = output.map { "[{\"id\": \($0), \"channel\": 0}]" } ?? "[]"
        return """
            {"name": "\(name)", "type": "\(type)", "code": \(Self.quoted(code)), "inputs": [\(inputs.joined(separator: ", "))],
             "outputs": \(outputs)}
            """
    }

    static func quoted(_ text: String) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: text, options: [.fragmentsAllowed]), as: UTF8.self)
    }

    static func export(_ passes: [String]) -> String {
        "{\"ver\": \"0.1\", \"info\": {\"name\": \"Test\", \"username\": \"me\"}, \"renderpass\": [\(passes.joined(separator: ", "))]}"
    }

    static func load(_ text: String, files: [String: String] = [:], assets: String? = nil) throws -> Preset {
        var files = files
        files["shader.json"] = text
        let dir = try folder(files)
        return try Preset.load(path: dir.appendingPathComponent("shader.json").path, assets: assets)
    }

    /// The words of the error loading `text` throws, which must be a ``PresetError`` of `kind`; "(no error)" if none.
    static func error(_ text: String, files: [String: String] = [:], kind: PresetError.Kind = .invalid) -> String {
        do {
            _ = try load(text, files: files)
            return "(no error)"
        } catch {
            #expect((error as? PresetError)?.kind == kind, "\(error)")
            return "\(error)"
        }
    }

    @Test func anExportWithCommonABufferAndATextureBecomesAProgram() throws {
        let json = Self.export([
            Self.pass("Common", type: "common", code: "float shared() { return 0.5; }"),
            Self.pass(
                "Image", type: "image",
                inputs: [
                    #"{"id": "4dXGR8", "channel": 1, "ctype": "buffer", "sampler": {"filter": "nearest", "wrap": "repeat", "vflip": "true"}}"#,
                    #"{"id": 16, "channel": 0, "type": "texture", "src": "/media/a/abc.png", "sampler": {"filter": "mipmap", "wrap": "repeat", "vflip": "false"}}"#,
                ], output: "37"),
            Self.pass(
                "Buf A", type: "buffer",
                inputs: [#"{"id": "4dXGR8", "channel": 0, "ctype": "buffer"}"#], output: "\"4dXGR8\""),
        ])
        let preset = try Self.load(json, files: ["abc.png": "not really a png"])
        let program = try #require(preset.shadertoyProgram)
        #expect(preset.name == "shader")
        #expect(preset.description.contains("Test by me"))
        #expect(preset.effects.isEmpty)
        #expect(preset.shadertoy == preset.file + "#Image")
        #expect(program.common?.text == "float shared() { return 0.5; }")
        #expect(program.buffers.map(\.name) == ["Buffer A"])
        #expect(program.buffers[0].channels == [ShadertoyChannel(index: 0, source: .buffer(.a))])
        let texture = URL(fileURLWithPath: preset.directory).appendingPathComponent("abc.png").path
        #expect(
            program.image.channels == [
                ShadertoyChannel(
                    index: 0, source: .texture(path: texture), filter: .mipmap, wrap: .repeat, vflip: false),
                ShadertoyChannel(index: 1, source: .buffer(.a), filter: .nearest, wrap: .repeat, vflip: true),
            ])
        #expect(preset.files == [preset.file, texture])
    }

    @Test func numericBufferIdsAndTheArrayWrapperAreRead() throws {
        let json =
            "["
            + Self.export([
                Self.pass(
                    "Image", type: "image", inputs: [#"{"id": 258, "channel": 2, "ctype": "buffer"}"#], output: "37"),
                Self.pass("Second", type: "buffer", output: "258"),
                Self.pass(
                    "First", type: "buffer", inputs: [#"{"id": 258, "channel": 0, "ctype": "buffer"}"#], output: "257"),
            ]) + "]"
        let program = try #require(try Self.load(json).shadertoyProgram)
        #expect(program.buffers.map(\.name) == ["Buffer A", "Buffer B"], "buffers render in the order A, B")
        #expect(program.buffers[0].channels.first?.source == .buffer(.b))
        #expect(program.image.channels.first?.index == 2)
    }

    @Test func aJSONThatIsNotAnExportIsRefused() throws {
        for text in [#"{"effects": []}"#, "[]", "42", #"{"renderpass": [{"name": "Image"}]}"#] {
            #expect(Self.error(text).contains("shader.json: not a Shadertoy export: "), "\(text)")
        }
        #expect(
            Self.error(Self.export([Self.pass("Buffer A", type: "buffer", output: "257")])).contains(
                "not a Shadertoy export: it has no pass of type \"image\""))
        #expect(Self.error("{\"renderpass\": [", kind: .syntax).contains("line 1"), "a syntax error says where")
    }

    @Test func aMissingTextureNamesThePassChannelFileAndWhereItLooked() throws {
        let json = Self.export([
            Self.pass(
                "Buffer A", type: "buffer",
                inputs: [#"{"id": 9, "channel": 3, "ctype": "texture", "src": "/media/a/gone.png"}"#], output: "257"),
            Self.pass("Image", type: "image", output: "37"),
        ])
        let assets = try Self.folder([:]).path
        var message = ""
        do {
            _ = try Self.load(json, assets: assets)
        } catch {
            message = "\(error)"
            #expect((error as? PresetError)?.kind == .invalid, "\(error)")
        }
        #expect(
            message.contains("pass 'Buffer A', iChannel3: texture file 'gone.png' (src /media/a/gone.png)"),
            "\(message)")
        #expect(message.contains(assets), "names the assets folder: \(message)")
        // With the file in the assets folder it loads.
        try "x".write(toFile: assets + "/gone.png", atomically: true, encoding: .utf8)
        let preset = try Self.load(json, assets: assets)
        #expect(preset.shadertoyProgram?.buffers.first?.channels.first?.source == .texture(path: assets + "/gone.png"))
        #expect(try preset.reloaded() == preset, "a reload finds the texture in the same assets folder")
    }

    @Test("a keyboard input is the keyboard channel, nearest and clamped, never flipped")
    func keyboardInput() throws {
        let json = Self.export([
            Self.pass(
                "Image", type: "image",
                inputs: [#"{"id": 33, "channel": 3, "ctype": "keyboard", "sampler": {"vflip": "true"}}"#], output: "37")
        ])
        let dir = try Self.folder(["shader.json": json])
        let program = try #require(
            try ShadertoyExport.load(file: dir.appendingPathComponent("shader.json").path).shadertoyProgram)
        #expect(
            program.image.channels == [ShadertoyChannel(index: 3, source: .keyboard, filter: .nearest, wrap: .clamp)])
        #expect(program.image.channels.first?.vflip == false)
    }

    @Test func aVolumeInputIsRefusedNamingThePassAndChannel() {
        let json = Self.export([
            Self.pass(
                "Buffer A", type: "buffer",
                inputs: [#"{"id": 33, "channel": 1, "ctype": "volume", "src": "/media/a/noise.bin"}"#], output: "257"),
            Self.pass("Image", type: "image", output: "37"),
        ])
        #expect(
            Self.error(json).hasSuffix(
                "shader.json: pass 'Buffer A', iChannel1: a volume (3D texture) input is not supported; remove the "
                    + "input from the pass"))
        let unknown = Self.export([
            Self.pass(
                "Image", type: "image", inputs: [#"{"id": 1, "channel": 0, "ctype": "hologram"}"#], output: "37")
        ])
        #expect(Self.error(unknown).contains("pass 'Image', iChannel0: unknown input type 'hologram' (known: texture"))
    }

    @Test("a cube map is six files named as Shadertoy names them, in GL's face order")
    func cubeMapInput() throws {
        let names = ["sky.png", "sky_1.png", "sky_2.png", "sky_3.png", "sky_4.png", "sky_5.png"]
        let input = #"{"id": "XsX3zn", "channel": 2, "ctype": "cubemap", "src": "/media/a/sky.png"}"#
        let json = Self.export([Self.pass("Image", type: "image", inputs: [input], output: "37")])
        let dir = try Self.folder(Dictionary(uniqueKeysWithValues: names.map { ($0, "x") } + [("shader.json", json)]))
        let program = try #require(
            try ShadertoyExport.load(file: dir.appendingPathComponent("shader.json").path).shadertoyProgram)
        let faces = names.map { dir.appendingPathComponent($0).standardizedFileURL.path }
        #expect(program.image.channels == [ShadertoyChannel(index: 2, source: .cubemap(faces: faces))])
        let channel = try #require(program.image.channels.first)
        #expect(channel.filter == .mipmap && channel.wrap == .clamp && !channel.vflip && channel.source.isCube)
        #expect(Set(program.files).isSuperset(of: faces), "every face is watched")

        // Two faces missing: both named, with the naming rule and where they were looked for.
        var partial = Dictionary(uniqueKeysWithValues: names.prefix(4).map { ($0, "x") })
        partial["shader.json"] = json
        let message = Self.error(json, files: partial)
        #expect(
            message.contains(
                "pass 'Image', iChannel2: cube map faces sky_4.png, sky_5.png (src /media/a/sky.png) not found; a cube "
                    + "map is six files, sky.png and sky_1.png … sky_5.png; looked in "),
            "\(message)")
    }

    @Test("Cube A is a pass; inputs name it by its output id or Shadertoy's own, and it may read itself")
    func cubeAPass() throws {
        let cube = Self.pass(
            "Cube A", type: "cubemap",
            code: "void mainCubemap(out vec4 c, in vec2 p, in vec3 o, in vec3 d) { c = vec4(d, 1.0); }",
            inputs: [#"{"id": "4dX3Rr", "channel": 0, "ctype": "cubemap", "filepath": "/media/previz/cubemap00.png"}"#],
            output: "\"4dX3Rr\"")
        let image = Self.pass(
            "Image", type: "image", inputs: [#"{"id": 41, "channel": 1, "ctype": "cubemap"}"#], output: "37")
        let preset = try Self.load(Self.export([image, cube]))
        let program = try #require(preset.shadertoyProgram)
        #expect(program.cube?.name == "Cube A")
        #expect(program.cube?.channels.map(\.source) == [.cubeBuffer])
        #expect(program.image.channels.map(\.source) == [.cubeBuffer])
        #expect(program.passes.map(\.name) == ["Cube A", "Image"])
        #expect(!program.drawsEveryFrame, "Cube A alone draws as often as what it reads changes")
        #expect(DependencyAnalysis.dependencies(ofCubeIn: preset) == .previousFrame, "it reads itself")
        let timed = Self.pass(
            "Cube A", type: "cubemap",
            code: "void mainCubemap(out vec4 c, in vec2 p, in vec3 o, in vec3 d) { c = vec4(d * iTime, 1.0); }",
            output: "\"4dX3Rr\"")
        #expect(try DependencyAnalysis.dependencies(ofCubeIn: Self.load(Self.export([image, timed]))) == .time)
        let still = Self.pass(
            "Cube A", type: "cubemap",
            code: "void mainCubemap(out vec4 c, in vec2 p, in vec3 o, in vec3 d) { c = vec4(d, 1.0); }",
            output: "\"4dX3Rr\"")
        #expect(try DependencyAnalysis.dependencies(of: Self.load(Self.export([image, still]))).isStatic)
        #expect(program.inputSummary == "Cube A: iChannel0 Cube A; Image: iChannel1 Cube A")

        let orphan = Self.export([image])
        #expect(
            Self.error(orphan).contains("pass 'Image', iChannel1: it reads Cube A, but this export has no Cube A pass"))
        #expect(Self.error(Self.export([image, cube, cube])).contains("pass 'Cube A': a second Cube pass"))
    }

    @Test("video, webcam, music and microphone inputs; music that is not found is silence with a notice")
    func liveInputs() throws {
        let inputs = [
            #"{"id": 1, "channel": 0, "ctype": "video", "src": "/media/a/clip.webm"}"#,
            #"{"id": 2, "channel": 1, "ctype": "webcam"}"#,
            #"{"id": 3, "channel": 2, "ctype": "music", "src": "/media/a/song.mp3"}"#,
            #"{"id": 4, "channel": 3, "ctype": "mic"}"#,
        ]
        let json = Self.export([Self.pass("Image", type: "image", inputs: inputs, output: "37")])
        let dir = try Self.folder(["shader.json": json, "clip.webm": "v", "song.mp3": "m"])
        let preset = try ShadertoyExport.load(file: dir.appendingPathComponent("shader.json").path)
        let program = try #require(preset.shadertoyProgram)
        let path = { (name: String) in dir.appendingPathComponent(name).standardizedFileURL.path }
        #expect(
            program.image.channels.map(\.source) == [
                .video(path: path("clip.webm")), .webcam, .music(path: path("song.mp3")), .microphone,
            ])
        #expect(program.image.channels.map(\.vflip) == [true, true, false, false])
        #expect(program.drawsEveryFrame && preset.notices.isEmpty)
        #expect(Set(program.files).isSuperset(of: [path("clip.webm"), path("song.mp3")]))

        // Music not found: silence and a notice; a video not found: an error naming where it looked.
        let silent = try Self.load(Self.export([Self.pass("Image", type: "image", inputs: [inputs[2]], output: "37")]))
        #expect(silent.shadertoyProgram?.image.channels.first?.source == .music(path: nil))
        #expect(silent.notices.count == 1)
        #expect(
            silent.notices.first?.hasPrefix(
                "pass 'Image', iChannel2: music file 'song.mp3' not found; the channel hears silence (looked in ")
                == true, "\(silent.notices)")
        let noVideo = Self.export([Self.pass("Image", type: "image", inputs: [inputs[0]], output: "37")])
        #expect(
            Self.error(noVideo).contains(
                "pass 'Image', iChannel0: video file 'clip.webm' (src /media/a/clip.webm) not found; looked in "))
        let stream = Self.export([
            Self.pass(
                "Image", type: "image",
                inputs: [#"{"id": 5, "channel": 0, "ctype": "musicstream", "src": "https://soundcloud.com/x/y"}"#],
                output: "37")
        ])
        #expect(
            try Self.load(stream).notices.first?.contains("a music stream (https://soundcloud.com/x/y) is not fetched")
                == true)
    }

    @Test("a Sound pass is left out with a notice, and the picture loads")
    func soundPassIsANotice() throws {
        let sound = Self.export([Self.pass("Sound", type: "sound"), Self.pass("Image", type: "image", output: "37")])
        let dir = try Self.folder(["shader.json": sound])
        let preset = try ShadertoyExport.load(file: dir.appendingPathComponent("shader.json").path)
        #expect(preset.notices == ["pass 'Sound': a Sound pass is not played (tiltfx draws the picture only)"])
        #expect(preset.shadertoyProgram?.buffers.isEmpty == true)
    }

    @Test func badSamplersAreRefused() {
        let sampler = Self.export([
            Self.pass(
                "Image", type: "image",
                inputs: [#"{"id": 257, "channel": 0, "ctype": "buffer", "sampler": {"filter": "cubic"}}"#], output: "37"
            ),
            Self.pass("Buffer A", type: "buffer", output: "257"),
        ])
        #expect(
            Self.error(sampler).contains(
                "pass 'Image', iChannel0: filter 'cubic' is not one of nearest, linear, mipmap"))
        let dangling = Self.export([
            Self.pass(
                "Image", type: "image", inputs: [#"{"id": "XsXGR8", "channel": 0, "ctype": "buffer"}"#], output: "37")
        ])
        #expect(
            Self.error(dangling).contains(
                "pass 'Image', iChannel0: buffer input id 'XsXGR8' is the output of no buffer pass"))
        let numbered = Self.export([
            Self.pass("Image", type: "image", inputs: [#"{"id": 258, "channel": 0, "ctype": "buffer"}"#], output: "37")
        ])
        #expect(
            Self.error(numbered).contains(
                "pass 'Image', iChannel0: buffer input id '258' is the output of no buffer pass"))
        let huge = Self.export([
            Self.pass(
                "Image", type: "image", inputs: [#"{"id": -9223372036854775808, "channel": 0, "ctype": "buffer"}"#]),
            Self.pass("Buffer A", type: "buffer", output: "-9223372036854775808"),
        ])
        #expect(Self.error(huge) == "(no error)", "any id names a buffer, without overflowing")
    }

    @Test func theObjectFormOfAPresetDescribesAProgram() throws {
        let json = """
            {"description": "d", "shadertoy": {"image": "main.glsl", "common": "common.glsl",
              "buffers": {"A": {"file": "a.glsl", "channels": [{"buffer": "A"}, {"channel": 2, "texture": "t.png", "filter": "nearest", "vflip": false}]}},
              "channels": [{"buffer": "A", "wrap": "repeat"}]}}
            """
        let dir = try Self.folder(["preset.json": json, "main.glsl": "", "common.glsl": "", "a.glsl": "", "t.png": ""])
        let preset = try Preset.load(directory: dir.path)
        let program = try #require(preset.shadertoyProgram)
        #expect(preset.shadertoy == dir.appendingPathComponent("main.glsl").path)
        #expect(program.common == ShadertoyCode(name: dir.appendingPathComponent("common.glsl").path))
        #expect(
            program.buffers[0].channels == [
                ShadertoyChannel(index: 0, source: .buffer(.a)),
                ShadertoyChannel(
                    index: 2, source: .texture(path: dir.appendingPathComponent("t.png").path), filter: .nearest,
                    vflip: false),
            ])
        #expect(program.image.channels == [ShadertoyChannel(index: 0, source: .buffer(.a), wrap: .repeat)])
        #expect(
            Set(preset.files)
                == Set(
                    ["preset.json", "main.glsl", "common.glsl", "a.glsl", "t.png"].map {
                        dir.appendingPathComponent($0).path
                    }))
        #expect(try preset.reloaded() == preset)
    }

    @Test func theObjectFormChecksItsKeysAndValues() throws {
        func error(_ shadertoy: String) throws -> String {
            let dir = try Self.folder(["preset.json": "{\"shadertoy\": \(shadertoy)}", "main.glsl": "", "a.glsl": ""])
            do {
                _ = try Preset.load(directory: dir.path)
            } catch {
                #expect(error.kind == .invalid, "\(error)")
                return "\(error)"
            }
            return "(no error)"
        }
        #expect(try error(#"{"image": "main.glsl", "chanels": []}"#).contains("shadertoy: unknown key 'chanels'"))
        #expect(
            try error(#"{"image": "main.glsl", "buffers": {"A": {"file": "a.glsl", "channels": [{"bufer": "A"}]}}}"#)
                .contains("shadertoy.buffers.A.channels[0]: unknown key 'bufer'"))
        #expect(
            try error(#"{"image": "main.glsl", "buffers": {"E": {"file": "a.glsl"}}}"#).contains(
                "shadertoy.buffers.E: buffers are named A, B, C or D"))
        #expect(
            try error(#"{"image": "main.glsl", "channels": [{"texture": "none.png"}]}"#).contains(
                "shadertoy.channels[0].texture: texture file 'none.png' not found"))
        #expect(
            try error(#"{"image": "main.glsl", "channels": [{"buffer": "A", "texture": "a.glsl"}]}"#).contains(
                "give exactly one of \"buffer\", \"texture\", \"cubemap\", \"video\", \"music\", or \"keyboard\", "
                    + "\"webcam\", \"microphone\": true"))
        #expect(
            try error(#"{"image": "main.glsl", "channels": [{"cubemap": ["a.glsl", "a.glsl"]}]}"#).contains(
                "shadertoy.channels[0].cubemap: give six files, in the order +X, −X, +Y, −Y, +Z, −Z (2 given)"))
        #expect(
            try error(#"{"image": "main.glsl", "channels": [{"buffer": "Cube A"}]}"#).contains(
                "shadertoy.channels: iChannel0 reads Cube A, which \"cube\" does not define"))
        #expect(
            try error(#"{"image": "main.glsl", "cube": {"file": "a.glsl", "channels": [{"webcam": true, "x": 1}]}}"#)
                .contains("shadertoy.cube.channels[0]: unknown key 'x'"))
        #expect(
            try error(
                #"{"image": "main.glsl", "cube": {"file": "a.glsl", "channels": [{"buffer": "cube"}]}, "channels": [{"buffer": "Cube A"}, {"microphone": true}, {"webcam": true}]}"#
            ) == "(no error)", "Cube A, the microphone and the webcam in the object form")
        #expect(
            try error(#"{"image": "main.glsl", "channels": [{"buffer": "A", "channel": 4}]}"#).contains(
                "channel 4 is not a free channel number 0–3"))
        #expect(
            try error(#"{"image": "main.glsl", "channels": [{"buffer": "B"}]}"#).contains(
                "shadertoy.channels: iChannel0 reads Buffer B, which \"buffers\" does not define"))
        #expect(try error(#""main.glsl""#) == "(no error)", "the plain file name still works")
    }

    @Test func everyShadertoyPassIncludesTheCommonCodeBeforeItsOwn() throws {
        let json = Self.export([
            Self.pass("Common", type: "common", code: "float commonThing() { return 1.0; }"),
            Self.pass(
                "Buffer A", type: "buffer", code: "void mainImage(out vec4 c, in vec2 p) { c = vec4(bufferA()); }",
                output: "257"),
            Self.pass(
                "Image", type: "image", code: "void mainImage(out vec4 c, in vec2 p) { c = vec4(imageCode()); }",
                output: "37"),
        ])
        let preset = try Self.load(json)
        let program = try #require(preset.shadertoyProgram)
        let image = try ShaderGenerator.generate(pass: PassPlanner.plan(preset)[0], preset: preset).fragmentSource
        let buffer = try ShaderGenerator.generate(
            pass: RenderPass(input: .shadertoy(file: program.buffers[0].code.name)), preset: preset
        ).fragmentSource
        for (source, own) in [(image, "imageCode()"), (buffer, "bufferA()")] {
            let common = try #require(source.range(of: "float commonThing()"))
            let code = try #require(source.range(of: own))
            #expect(common.upperBound < code.lowerBound)
            #expect(
                source.contains("#define HW_PERFORMANCE 1") && source.contains("uniform vec3 iChannelResolution[4];"))
        }
        #expect(!image.contains("bufferA()") && !buffer.contains("imageCode()"))
        // A compiler message about the inline code names the export's pass.
        let map = try ShaderGenerator.generate(pass: PassPlanner.plan(preset)[0], preset: preset).sourceMap
        #expect(map.rewrite(log: "0:200001(12): error: oops") == "\(preset.file)#Image:1:12: error: oops")
    }

    @Test func aLibraryListsAndLoadsExportsByName() throws {
        let dir = try Self.folder([
            "trail.json": Self.export([Self.pass("Image", type: "image", output: "37")]),
            "notes.txt": "",
        ])
        let library = PresetLibrary(searchPaths: [dir.path])
        #expect(library.names == ["trail"])
        #expect(try library.load("trail").shadertoyProgram != nil)
        #expect(try library.load(dir.appendingPathComponent("trail.json").path).name == "trail")
        let missing = #expect(throws: PresetError.self) {
            try library.load(dir.appendingPathComponent("missing.json").path)
        }
        #expect(missing?.kind == .unreadable)
    }
}
