import Foundation
import Testing
import TiltEffects
import TiltRenderTestKit
import TiltTestKit

@testable import TiltGL
@testable import TiltImage
@testable import TiltRender

/// Shadertoy programs on llvmpipe: buffers with feedback, Shadertoy's pass order, texture channels with their
/// sampler's flip, Shadertoy JSON exports through the real `tiltfx`, and the errors it gives for what it cannot run.
@Suite(.serialized) struct ShadertoyRenderTests {
    /// A fresh folder holding `files` (name → text).
    static func folder(_ files: [String: String]) throws -> URL {
        let dir = TestPaths.temporaryDirectory("tilt-toy")
        for (name, text) in files {
            try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return dir
    }

    /// The RGBA of pixel (x, y), y from the top.
    static func pixel(_ rgba: [UInt8], width: Int, _ x: Int, _ y: Int) -> [Int] {
        let i = (y * width + x) * 4
        return rgba[i..<i + 4].map(Int.init)
    }

    /// `text` as a JSON string literal.
    static func quoted(_ text: String) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: text, options: [.fragmentsAllowed]), as: UTF8.self)
    }

    /// A 2×2 PNG: top row red, green; bottom row blue, white.
    static func writeQuadrants(to path: String) throws {
        let rgba: [UInt8] = [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255]
        try PNGFile.write(rgba: rgba, width: 2, height: 2, to: path)
    }

    @Test func bufferFeedbackAccumulatesAndPassesSeeEachOtherInShadertoysOrder() throws {
        _ = GLTestEnvironment.configured
        // A adds 1 to its previous frame (r) and keeps B's previous frame (g); B copies A of this frame.
        let json = """
            {"description": "feedback", "shadertoy": {"image": "image.glsl",
              "buffers": {"A": {"file": "a.glsl", "channels": [{"buffer": "A", "filter": "nearest"}, {"buffer": "B"}]},
                          "B": {"file": "b.glsl", "channels": [{"buffer": "A"}]}},
              "channels": [{"buffer": "A"}, {"buffer": "B"}]}}
            """
        let dir = try Self.folder([
            "preset.json": json,
            "a.glsl": """
            void mainImage(out vec4 c, in vec2 p) {
                c = vec4(texelFetch(iChannel0, ivec2(p), 0).r + 1.0, texelFetch(iChannel1, ivec2(p), 0).r, 0.0, 1.0);
            }
            """,
            "b.glsl": "void mainImage(out vec4 c, in vec2 p) { c = texelFetch(iChannel0, ivec2(p), 0); }\n",
            "image.glsl": """
            void mainImage(out vec4 c, in vec2 p) {
                vec4 a = texelFetch(iChannel0, ivec2(p), 0);
                vec4 b = texelFetch(iChannel1, ivec2(p), 0);
                c = vec4(b.r / 16.0, a.g / 16.0, iChannelResolution[1].x / 255.0, 1.0);
            }
            """,
        ])
        let renderer = try OffscreenRenderer(preset: try Preset.load(directory: dir.path), width: 8, height: 4)
        #expect(renderer.effects.isAnimated, "a preset with buffers redraws every frame")
        for frame in 0..<12 {
            let pixels = try renderer.render(FrameInputs(time: Double(frame) / 30, frame: frame, size: [8, 4]))
            // B this frame = A this frame = frame + 1 (beyond 1.0: the buffers are float); A's copy of B = frame.
            let expected = [Double(frame + 1) * 255 / 16, Double(frame) * 255 / 16, 8]
            for (x, y) in [(0, 0), (7, 3), (3, 2)] {
                let got = Self.pixel(pixels, width: 8, x, y)
                for c in 0..<3 {
                    #expect(abs(Double(got[c]) - expected[c]) <= 1, "frame \(frame) pixel \(x),\(y): \(got)")
                }
            }
        }
    }

    @Test(arguments: [true, false])
    func anExportWithABufferATextureAndCommonCodeRenders(vflip: Bool) throws {
        _ = GLTestEnvironment.configured
        let dir = try Self.folder(["shader.json": Self.textureExport(vflip: vflip, filter: "nearest")])
        try Self.writeQuadrants(to: dir.appendingPathComponent("quadrants.png").path)
        let preset = try Preset.load(path: dir.appendingPathComponent("shader.json").path)
        let renderer = try OffscreenRenderer(preset: preset, width: 2, height: 2)
        let pixels = try renderer.render(FrameInputs(size: [2, 2]))
        // Flipped (Shadertoy's default) the texture shows upright; unflipped, upside down.
        let top = [[255, 0, 0, 255], [0, 255, 0, 255]]
        let bottom = [[0, 0, 255, 255], [255, 255, 255, 255]]
        let rows = vflip ? [top, bottom] : [bottom, top]
        for y in 0..<2 {
            for x in 0..<2 {
                #expect(Self.pixel(pixels, width: 2, x, y) == rows[y][x], "vflip \(vflip): pixel \(x),\(y)")
            }
        }
    }

    /// An export whose Buffer A copies a texture (`quadrants.png`, channel 0) through a Common function, and whose
    /// Image shows Buffer A (channel 1) through the same function.
    static func textureExport(vflip: Bool, filter: String, texture: String = "/media/a/quadrants.png") -> String {
        let doc: [String: Any] = [
            "ver": "0.1", "info": ["name": "quadrants", "username": "test"],
            "renderpass": [
                ["name": "Common", "type": "common", "code": "vec4 keep(vec4 c) { return vec4(c.rgb, 1.0); }\n"],
                [
                    "name": "Image", "type": "image",
                    "code":
                        "void mainImage(out vec4 c, in vec2 p) { c = keep(texture(iChannel1, p / iResolution.xy)); }\n",
                    "inputs": [["id": "4dXGR8", "channel": 1, "ctype": "buffer", "sampler": ["filter": "linear"]]],
                    "outputs": [["id": "4sXGR8", "channel": 0]],
                ],
                [
                    "name": "Buffer A", "type": "buffer",
                    "code":
                        "void mainImage(out vec4 c, in vec2 p) { c = keep(texture(iChannel0, p / iResolution.xy)); }\n",
                    "inputs": [
                        [
                            "id": 5, "channel": 0, "ctype": "texture", "src": texture,
                            "sampler": ["filter": filter, "wrap": "clamp", "vflip": vflip ? "true" : "false"],
                        ]
                    ],
                    "outputs": [["id": "4dXGR8", "channel": 0]],
                ],
            ],
        ]
        let data = try! JSONSerialization.data(withJSONObject: doc, options: [.prettyPrinted, .sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    @Test func theBundledTrailKeepsWhereTheBallWas() throws {
        _ = GLTestEnvironment.configured
        let preset = try GLTestEnvironment.library.load("toy-trail")
        #expect(preset.shadertoyProgram?.buffers.count == 1)
        let renderer = try OffscreenRenderer(preset: preset, width: 64, height: 48)
        func lit(_ pixels: [UInt8]) -> Int {
            stride(from: 0, to: pixels.count, by: 4).count {
                Int(pixels[$0]) + Int(pixels[$0 + 1]) + Int(pixels[$0 + 2]) > 150
            }
        }
        let first = lit(try renderer.render(FrameInputs(size: [64, 48])))
        var last = 0
        for frame in 1..<20 {
            last = lit(try renderer.render(FrameInputs(time: Double(frame) * 0.1, frame: frame, size: [64, 48])))
        }
        #expect(first > 0, "the ball shows on the first frame")
        #expect(last > first * 2, "the trail behind the moving ball stays lit: \(first) → \(last) pixels")
    }

    @Test func tiltfxRendersAnExportWithItsTextureFromTheAssetsFolder() throws {
        let dir = try Self.folder(["shader.json": Self.textureExport(vflip: true, filter: "mipmap")])
        let assets = try Self.folder([:])
        try Self.writeQuadrants(to: assets.appendingPathComponent("quadrants.png").path)
        let out = dir.appendingPathComponent("out.png").path
        let json = dir.appendingPathComponent("shader.json").path
        let r = try TiltFXProcess.run(
            ["render", "--preset", json, "--assets", assets.path, "--size", "2x2", "--out", out])
        #expect(r.status == 0, "\(r.stderr)")
        let image = try PNGFile.read(path: out)
        #expect(image.rgba == [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255])

        let missing = try TiltFXProcess.run(["render", "--preset", json, "--size", "2x2", "--out", out])
        #expect(missing.status == 1)
        #expect(
            missing.stderr.hasPrefix(
                "error: \(json): pass 'Buffer A', iChannel0: texture file 'quadrants.png' (src /media/a/quadrants.png) "
                    + "not found; looked in \(dir.path); put it beside the export or pass --assets DIR"),
            "\(missing.stderr)")

        let nowhere = assets.appendingPathComponent("nowhere").path
        let noFolder = try TiltFXProcess.run(["render", "--preset", json, "--assets", nowhere, "--out", out])
        #expect(noFolder.status == 1)
        #expect(noFolder.stderr.hasPrefix("error: --assets \(nowhere): no such folder"), "\(noFolder.stderr)")
        let checkNoFolder = try TiltFXProcess.run(["check", "--presets", dir.path, "--assets", nowhere])
        #expect(checkNoFolder.status == 1)
        #expect(checkNoFolder.stderr.hasPrefix("error: --assets \(nowhere): no such folder"), "\(checkNoFolder.stderr)")

        let check = try TiltFXProcess.run(["check", "--presets", dir.path, "--assets", assets.path])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(
            check.stdout.contains("1 presets load (shader)") && check.stdout.contains("ok   shaders: 1 presets compile")
        )
    }

    @Test(arguments: [
        ("{\"effects\": []}", "not a Shadertoy export: it has no \"renderpass\" list"),
        ("[1, 2]", "not a Shadertoy export: it is not a JSON object with a \"renderpass\" list"),
        (keyboardExport("volume"), "pass 'Buffer A', iChannel1: a volume (3D texture) input is not supported"),
        (
            keyboardExport("cubemap"),
            "pass 'Buffer A', iChannel1: cube map file 'tex00.jpg' (src /presets/tex00.jpg) not found, nor its other five faces tex00_1.jpg … tex00_5.jpg; looked in "
        ),
    ])
    func tiltfxRefusesWhatItCannotRun(text: String, message: String) throws {
        let dir = try Self.folder(["shader.json": text])
        let json = dir.appendingPathComponent("shader.json").path
        for command in ["render", "check"] {
            let r =
                command == "render"
                ? try TiltFXProcess.run(["render", "--preset", json, "--size", "4x4", "--out", dir.path + "/o.png"])
                : try TiltFXProcess.run(["check", "--presets", dir.path])
            #expect(r.status == 1, "\(command): \(r.stdout)\(r.stderr)")
            let said = command == "render" ? r.stderr : r.stdout
            #expect(said.contains("\(json): \(message)"), "\(command): \(said)")
            if command == "render" { #expect(r.stderr.hasPrefix("error: ")) }
        }
    }

    static func keyboardExport(_ type: String) -> String {
        """
        {"ver": "0.1", "renderpass": [
          {"name": "Buffer A", "type": "buffer", "code": "void mainImage(out vec4 c, in vec2 p) { c = vec4(1.0); }",
           "inputs": [{"id": 33, "channel": 1, "ctype": "\(type)", "src": "/presets/tex00.jpg"}],
           "outputs": [{"id": 257, "channel": 0}]},
          {"name": "Image", "type": "image", "code": "void mainImage(out vec4 c, in vec2 p) { c = vec4(1.0); }",
           "inputs": [], "outputs": [{"id": 37, "channel": 0}]}]}
        """
    }

    @Test("a keyboard channel reads held, pressed and toggled in rows 0, 1 and 2 at the key's browser code")
    func theKeyboardChannel() throws {
        _ = GLTestEnvironment.configured
        let export = """
            {"ver": "0.1", "renderpass": [
              {"name": "Image", "type": "image", "outputs": [{"id": 37, "channel": 0}],
               "inputs": [{"id": 33, "channel": 2, "ctype": "keyboard",
                           "sampler": {"filter": "mipmap", "wrap": "repeat", "vflip": "true"}}],
               "code": "void mainImage(out vec4 c, in vec2 p) { int row = int(p.x); c = vec4(texelFetch(iChannel2, ivec2(65, row), 0).x, texture(iChannel2, vec2(65.5 / 256.0, (float(row) + 0.5) / 3.0)).x, iChannelResolution[2].x / 256.0, iChannelResolution[2].y / 3.0); }"}]}
            """
        let dir = try Self.folder(["keys.json": export])
        let renderer = try OffscreenRenderer(
            preset: try ShadertoyExport.load(file: dir.appendingPathComponent("keys.json").path), width: 3, height: 1)
        // Every key up (a headless run: no keyboard at all).
        var inputs = FrameInputs(time: 0, timeDelta: 1.0 / 30, size: [3, 1])
        var pixels = try renderer.render(inputs)
        #expect((0..<3).map { Self.pixel(pixels, width: 3, $0, 0) } == Array(repeating: [0, 0, 255, 255], count: 3))
        // A goes down: held, pressed this frame, toggled.
        var keyboard = ShadertoyKeyboard()
        keyboard.press(65)
        inputs.keyboard = keyboard
        pixels = try renderer.render(inputs)
        #expect(
            (0..<3).map { Self.pixel(pixels, width: 3, $0, 0) } == Array(repeating: [255, 255, 255, 255], count: 3))
        // The next frame it is only held and toggled; another key changes nothing of A's.
        keyboard.frameDrawn()
        keyboard.press(66)
        inputs.keyboard = keyboard
        pixels = try renderer.render(inputs)
        #expect((0..<3).map { Self.pixel(pixels, width: 3, $0, 0)[0] } == [255, 0, 255])
    }

    @Test("tiltfx renders an export with a keyboard input and a Sound pass, saying the sound is not played")
    func anExportWithKeyboardAndSoundRenders() throws {
        let export = """
            {"ver": "0.1", "renderpass": [
              {"name": "Sound", "type": "sound", "inputs": [], "outputs": [],
               "code": "vec2 mainSound(int s, float t) { return vec2(sin(6.2831 * 440.0 * t)); }"},
              {"name": "Image", "type": "image", "outputs": [{"id": 37, "channel": 0}],
               "inputs": [{"id": 33, "channel": 0, "ctype": "keyboard"}],
               "code": "void mainImage(out vec4 c, in vec2 p) { c = vec4(1.0 - texelFetch(iChannel0, ivec2(32, 0), 0).x, 0.0, 0.0, 1.0); }"}]}
            """
        let dir = try Self.folder(["both.json": export])
        let json = dir.appendingPathComponent("both.json").path
        let out = dir.appendingPathComponent("o.png").path
        let r = try TiltFXProcess.run(["render", "--preset", json, "--size", "4x4", "--out", out])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.stderr.contains(
                "note: \(json): pass 'Sound': a Sound pass is not played (tiltfx draws the picture only)"),
            "\(r.stderr)")
        let image = try PNGFile.read(path: out)
        #expect(Self.pixel(image.rgba, width: 4, 1, 1) == [255, 0, 0, 255], "the space bar is up headless")
        let check = try TiltFXProcess.run(["check", "--presets", dir.path])
        #expect(check.status == 0, "\(check.stdout)")
        #expect(
            check.stdout.contains("note presets: both: pass 'Sound': a Sound pass is not played"), "\(check.stdout)")
        #expect(check.stdout.contains("ok   inputs: both: Image: iChannel0 keyboard"), "\(check.stdout)")
    }

    @Test func aCompileErrorInAnExportNamesThePassAndLine() throws {
        let text = """
            {"ver": "0.1", "renderpass": [
              {"name": "Buffer A", "type": "buffer", "outputs": [{"id": 257, "channel": 0}],
               "code": "// a comment\\nvoid mainImage(out vec4 c, in vec2 p) { c = vec4(nowhere); }"},
              {"name": "Image", "type": "image", "code": "void mainImage(out vec4 c, in vec2 p) { c = vec4(1.0); }"}]}
            """
        let dir = try Self.folder(["shader.json": text])
        let json = dir.appendingPathComponent("shader.json").path
        let r = try TiltFXProcess.run(["render", "--preset", json, "--size", "4x4", "--out", dir.path + "/o.png"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("\(json)#Buffer A:2:") && r.stderr.contains("nowhere"), "\(r.stderr)")
    }

    @Test func shadertoysUniformsAndMacrosHaveTheirValues() throws {
        _ = GLTestEnvironment.configured
        let dir = try Self.folder([
            "preset.json": #"{"description": "u", "shadertoy": {"image": "image.glsl"}}"#,
            "image.glsl": """
            void mainImage(out vec4 c, in vec2 p) {
                float channelTime = iChannelTime[2] == iTime ? 1.0 : 0.0;
                c = vec4(iSampleRate / 88200.0, iFrameRate / 120.0, float(HW_PERFORMANCE) * channelTime, 1.0);
                if (p.x > 1.0) c = vec4((iDate.x - 2000.0) / 255.0, iDate.y / 255.0, iDate.z / 255.0, 1.0);
            }
            """,
        ])
        let renderer = try OffscreenRenderer(preset: try Preset.load(directory: dir.path), width: 2, height: 1)
        let pixels = try renderer.render(FrameInputs(time: 3, timeDelta: 1.0 / 30, size: [2, 1]))
        #expect(Self.pixel(pixels, width: 2, 0, 0) == [128, 64, 255, 255], "44100 Hz, 30 fps, HW_PERFORMANCE 1")
        let today = Calendar.current.dateComponents([.year, .month, .day], from: Date())
        let date = Self.pixel(pixels, width: 2, 1, 0)
        #expect(date[0] == today.year! - 2000 && date[1] == today.month! - 1 && date[2] == today.day!, "\(date)")
    }

    @Test("a variable a shader leaves uninitialised is zero, as in WebGL: tiltfx asks Mesa for it, quietly")
    func uninitialisedVariablesAreZero() throws {
        // Shadertoy code relies on it (`vec3 v; if (…) v.x = 1.0;`, `for (int i; i < n; i++)`). Without it llvmpipe
        // gives this shader's left pixel the right one's x and no y or z.
        let code = """
            vec3 pick(float k) { vec3 v; if (k > 0.5) v.x = 1.0; return v; }
            void mainImage(out vec4 c, in vec2 p) {
                vec3 v = pick(p.x / iResolution.x);
                c = vec4(v.x, v.y + 0.25, v.z + 0.5, 1.0);
            }
            """
        let export =
            "{\"ver\": \"0.1\", \"renderpass\": [{\"name\": \"Image\", \"type\": \"image\", \"inputs\": [], "
            + "\"outputs\": [{\"id\": 37, \"channel\": 0}], \"code\": \(Self.quoted(code))}]}"
        let dir = try Self.folder(["pick.json": export])
        let out = dir.appendingPathComponent("pick.png").path
        // tiltfx's own environment, without what this test process set for its in-process renders.
        let r = try ChildProcess.run(
            "/usr/bin/env",
            [
                "-u", "glsl_zero_init", "-u", "MESA_DEBUG", "EGL_PLATFORM=surfaceless", "LIBGL_ALWAYS_SOFTWARE=1",
                TestPaths.executable("tiltfx"), "render", "--preset", dir.appendingPathComponent("pick.json").path,
                "--size", "2x1", "--out", out,
            ], timeout: 60)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stderr.contains("ATTENTION"), "Mesa's note about the option is not shown: \(r.stderr)")
        let image = try PNGFile.read(path: out)
        #expect(Array(image.rgba) == [0, 64, 128, 255, 255, 64, 128, 255], "\(image.rgba)")
    }

    @Test("a golfed mainImage written as a macro, with its own c, p, u and a return, compiles and draws")
    func aMacroMainImageCompiles() throws {
        _ = GLTestEnvironment.configured
        let dir = try Self.folder([
            "preset.json": #"{"description": "golf", "shadertoy": {"image": "image.glsl"}}"#,
            // The names the wrapper used to have (c, p) declared again inside the macro's body, and a return.
            "image.glsl": """
            #define mainImage(O, u) float c = u.x < 1. ? 1. : .2; vec2 p = u; O = vec4(c, p.y / 4., 0, 1); return;
            """,
        ])
        let renderer = try OffscreenRenderer(preset: try Preset.load(directory: dir.path), width: 2, height: 1)
        let pixels = try renderer.render(FrameInputs(time: 0, timeDelta: 1.0 / 30, size: [2, 1]))
        #expect(Self.pixel(pixels, width: 2, 0, 0) == [255, 32, 0, 255])
        #expect(Self.pixel(pixels, width: 2, 1, 0) == [51, 32, 0, 255])
    }

    @Test func aTextureThatIsNoPictureNamesThePassChannelAndFile() throws {
        let dir = try Self.folder([
            "shader.json": Self.textureExport(vflip: true, filter: "linear"), "quadrants.png": "not a picture",
        ])
        let json = dir.appendingPathComponent("shader.json").path
        let r = try TiltFXProcess.run(["render", "--preset", json, "--size", "2x2", "--out", dir.path + "/o.png"])
        #expect(r.status == 1)
        let picture = dir.appendingPathComponent("quadrants.png").path
        #expect(r.stderr.hasPrefix("error: cannot read \(picture): pass 'Buffer A', iChannel0: "), "\(r.stderr)")
    }

    @Test func anUnusedChannelSamplesBlackEvenWithALayerEffectAfterThePass() throws {
        _ = GLTestEnvironment.configured
        let dir = try Self.folder([
            "preset.json": """
            {"description": "c", "shadertoy": "main.glsl",
             "effects": [{"kind": "layer", "function": "same", "file": "same.glsl"}]}
            """,
            "main.glsl": """
            void mainImage(out vec4 c, in vec2 p) {
                c = vec4(texture(iChannel0, p / iResolution.xy).r + 0.5, iChannelResolution[0].x, 0.0, 1.0);
            }
            """,
            "same.glsl": "vec4 same(vec2 p, Layer layer) { return sampleLayer(layer, p); }\n",
        ])
        let renderer = try OffscreenRenderer(preset: try Preset.load(directory: dir.path), width: 4, height: 4)
        for frame in 0..<3 {
            let pixels = try renderer.render(FrameInputs(frame: frame, size: [4, 4]))
            #expect(Self.pixel(pixels, width: 4, 1, 1) == [128, 0, 0, 255], "frame \(frame)")
        }
    }

    @Test func theBuffersStartAgainWhenTheOutputSizeChanges() throws {
        _ = GLTestEnvironment.configured
        let dir = try Self.folder([
            "preset.json": """
            {"description": "s", "shadertoy": {"image": "image.glsl",
              "buffers": {"A": {"file": "a.glsl", "channels": [{"buffer": "A"}]}}, "channels": [{"buffer": "A"}]}}
            """,
            "a.glsl": "void mainImage(out vec4 c, in vec2 p) { c = texelFetch(iChannel0, ivec2(p), 0) + 1.0; }\n",
            "image.glsl": """
            void mainImage(out vec4 c, in vec2 p) { c = vec4(texelFetch(iChannel0, ivec2(p), 0).r / 16.0, 0, 0, 1); }
            """,
        ])
        let context = try HeadlessContext()
        try withExtendedLifetime(context) {
            let effects = try EffectRenderer(preset: try Preset.load(directory: dir.path))
            let large = try RenderTarget(width: 8, height: 8)
            let small = try RenderTarget(width: 4, height: 4)
            for frame in 0..<3 {
                try effects.render(
                    FrameInputs(frame: frame, size: [8, 8]), framebuffer: large.framebuffer, width: 8, height: 8)
            }
            #expect(Self.pixel(large.readPixels(), width: 8, 5, 5)[0] == 48, "three frames accumulated")
            try effects.render(
                FrameInputs(frame: 3, size: [4, 4]), framebuffer: small.framebuffer, width: 4, height: 4)
            #expect(Self.pixel(small.readPixels(), width: 4, 1, 1)[0] == 16, "one frame since the resize")
        }
    }
}
