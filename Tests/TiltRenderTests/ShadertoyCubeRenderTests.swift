import Foundation
import Testing
import TiltEffects
import TiltRenderTestKit
import TiltTestKit

@testable import TiltGL
@testable import TiltImage

/// Cube maps on llvmpipe: a cube map of six files read back in the six directions, and Cube A drawing the six faces
/// (with its own previous frame) for the Image to read.
@Suite(.serialized) struct ShadertoyCubeRenderTests {
    /// The six faces' colours in GL's order: +X red, −X green, +Y blue, −Y yellow, +Z magenta, −Z cyan.
    static let faceColours: [[UInt8]] = [
        [255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 0], [255, 0, 255], [0, 255, 255],
    ]
    /// The six axis directions, in the same order, as GLSL.
    static let directions = [
        "vec3(1, 0, 0)", "vec3(-1, 0, 0)", "vec3(0, 1, 0)", "vec3(0, -1, 0)", "vec3(0, 0, 1)", "vec3(0, 0, -1)",
    ]

    /// An Image pass that shows, at pixel x of a 6 × 1 output, `iChannel0` read in direction x of ``directions``.
    static let sixDirections = """
        void mainImage(out vec4 c, in vec2 p) {
            vec3 d[6] = vec3[6](\(directions.joined(separator: ", ")));
            c = vec4(texture(iChannel0, d[int(p.x)]).rgb, 1.0);
        }
        """

    static func export(_ passes: [[String: Any]]) throws -> String {
        let doc: [String: Any] = ["ver": "0.1", "info": ["name": "cube"], "renderpass": passes]
        return String(decoding: try JSONSerialization.data(withJSONObject: doc, options: [.sortedKeys]), as: UTF8.self)
    }

    /// The export `json` written into `dir` and loaded.
    static func load(_ json: String, in dir: URL) throws -> Preset {
        try json.write(to: dir.appendingPathComponent("cube.json"), atomically: true, encoding: .utf8)
        return try ShadertoyExport.load(file: dir.appendingPathComponent("cube.json").path)
    }

    /// An export in `dir` whose Image pass reads the cube map `sky.png` … `sky_5.png` there (``sixDirections``).
    static func skyExport(in dir: URL) throws -> Preset {
        let image: [String: Any] = [
            "name": "Image", "type": "image", "code": sixDirections + "\n",
            "inputs": [["id": "XsX3zn", "channel": 0, "ctype": "cubemap", "src": "/media/a/sky.png"]],
            "outputs": [["id": "4sXGR8", "channel": 0]],
        ]
        return try load(try export([image]), in: dir)
    }

    static func colours(_ pixels: [UInt8], count: Int) -> [[Int]] {
        (0..<count).map { x in pixels[x * 4..<x * 4 + 3].map(Int.init) }
    }

    @Test("a cube map of six flat colours reads each face's colour in its direction")
    func sixFacesInSixDirections() throws {
        _ = GLTestEnvironment.configured
        let dir = TestPaths.temporaryDirectory("tilt-cube")
        let names = ["sky.png"] + (1...5).map { "sky_\($0).png" }
        for (name, colour) in zip(names, Self.faceColours) {
            let rgba: [UInt8] = (0..<16).flatMap { _ -> [UInt8] in colour + [255] }
            try PNGFile.write(rgba: rgba, width: 4, height: 4, to: dir.appendingPathComponent(name).path)
        }
        let preset = try Self.skyExport(in: dir)
        let renderer = try OffscreenRenderer(preset: preset, width: 6, height: 1)
        let pixels = try renderer.render(FrameInputs(size: [6, 1]))
        #expect(Self.colours(pixels, count: 6) == Self.faceColours.map { $0.map(Int.init) })
    }

    @Test("a face that is not square or differs in size is refused, naming the file, pass and channel")
    func badFaces() throws {
        _ = GLTestEnvironment.configured
        let dir = TestPaths.temporaryDirectory("tilt-cube")
        let names = ["sky.png"] + (1...5).map { "sky_\($0).png" }
        for (i, name) in names.enumerated() {
            let (w, h) = i == 3 ? (4, 2) : (4, 4)
            try PNGFile.write(
                rgba: [UInt8](repeating: 255, count: w * h * 4), width: w, height: h,
                to: dir.appendingPathComponent(name).path)
        }
        let preset = try Self.skyExport(in: dir)
        #expect {
            _ = try OffscreenRenderer(preset: preset, width: 6, height: 1)
        } throws: { error in
            "\(error)".contains("sky_3.png: pass 'Image', iChannel0: cube map face is 4×2; cube faces are square")
        }
    }

    /// Cube A drawing `0.5 + 0.5 · rayDir`, read by the Image in `directions`.
    @Test("Cube A draws each face with the ray a samplerCube reads it by")
    func cubeAPassDrawsRays() throws {
        _ = GLTestEnvironment.configured
        let image = """
            void mainImage(out vec4 c, in vec2 p) {
                vec3 d[4] = vec3[4](vec3(1, 0, 0), vec3(0, -1, 0), vec3(0, 0, -1), normalize(vec3(1, 1, 1)));
                c = vec4(texture(iChannel2, d[int(p.x)]).rgb, 1.0);
            }

            """
        let json = try Self.export([
            [
                "name": "Image", "type": "image", "code": image,
                "inputs": [["id": "4dX3Rr", "channel": 2, "ctype": "cubemap"]],
                "outputs": [["id": "4sXGR8", "channel": 0]],
            ],
            [
                "name": "Cube A", "type": "cubemap",
                "code": """
                void mainCubemap(out vec4 c, in vec2 fragCoord, in vec3 rayOri, in vec3 rayDir) {
                    c = vec4(0.5 + 0.5 * rayDir + rayOri, iResolution.x / 1024.0);
                }

                """,
                "inputs": [], "outputs": [["id": "4dX3Rr", "channel": 0]],
            ],
        ])
        let preset = try Self.load(json, in: TestPaths.temporaryDirectory("tilt-cube"))
        let renderer = try OffscreenRenderer(preset: preset, width: 4, height: 1)
        #expect(!renderer.effects.isAnimated, "a Cube A that reads no time is drawn once")
        let first = try renderer.render(FrameInputs(size: [4, 1]))
        #expect(try renderer.render(FrameInputs(time: 1, frame: 1, size: [4, 1])) == first, "kept, not cleared")
        let got = Self.colours(first, count: 4)
        let diagonal = (0.5 + 0.5 / 3.0.squareRoot()) * 255
        let expected: [[Double]] = [
            [255, 127.5, 127.5], [127.5, 0, 127.5], [127.5, 127.5, 0], [diagonal, diagonal, diagonal],
        ]
        for (g, e) in zip(got, expected) {
            #expect(zip(g, e).allSatisfy { abs(Double($0) - $1) <= 2 }, "\(got) against \(expected)")
        }
    }

    @Test("Cube A reading itself sees its previous frame")
    func cubeAFeedback() throws {
        _ = GLTestEnvironment.configured
        let json = try Self.export([
            [
                "name": "Image", "type": "image",
                "code":
                    "void mainImage(out vec4 c, in vec2 p) { c = vec4(texture(iChannel0, vec3(0, 0, 1)).rgb, 1.0); }\n",
                "inputs": [["id": "4dX3Rr", "channel": 0, "ctype": "cubemap"]],
                "outputs": [["id": "4sXGR8", "channel": 0]],
            ],
            [
                "name": "Cube A", "type": "cubemap",
                "code":
                    "void mainCubemap(out vec4 c, in vec2 f, in vec3 o, in vec3 d) { c = texture(iChannel0, d) + vec4(1.0 / 16.0); }\n",
                "inputs": [["id": "4dX3Rr", "channel": 0, "ctype": "cubemap"]],
                "outputs": [["id": "4dX3Rr", "channel": 0]],
            ],
        ])
        let preset = try Self.load(json, in: TestPaths.temporaryDirectory("tilt-cube"))
        let renderer = try OffscreenRenderer(preset: preset, width: 1, height: 1)
        for frame in 0..<4 {
            let red = Int(try renderer.render(FrameInputs(frame: frame, size: [1, 1]))[0])
            #expect(abs(red - (frame + 1) * 255 / 16) <= 1, "frame \(frame): \(red)")
        }
    }
}
