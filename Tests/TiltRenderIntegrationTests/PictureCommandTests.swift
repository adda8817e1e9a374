import Foundation
import Testing
import TiltImage
import TiltRender
import TiltRenderTestKit
import TiltTestKit

/// `tiltfx … --image` and named textures through the built binary: what a person sees when a file is bad.
@Suite(.serialized) struct PictureCommandTests {
    static let presets = GLTestEnvironment.presetsDirectory

    /// `tiltfx render` of `preset` at 32x32 with `extra` arguments, into a fresh folder.
    static func render(_ extra: [String], preset: String = "foil", presets: String = presets) throws
        -> (result: TiltFXProcess, out: String)
    {
        let out = TestPaths.temporaryDirectory("pic").appendingPathComponent("out.png").path
        let r = try TiltFXProcess.run(
            ["render", "--presets", presets, "--preset", preset, "--size", "32x32", "--out", out] + extra)
        return (r, out)
    }

    @Test func aPNGAndAJPEGRenderAndTheFitIsApplied() throws {
        let image = TestPictures.pattern(width: 16, height: 8)
        for (bytes, name) in [(try TestPictures.png(image), "p.png"), (try TestPictures.jpeg(image), "p.jpg")] {
            let path = try TestPictures.file(bytes, name: name)
            let contain = try Self.render(["--image", path], preset: "tilt-specular")
            #expect(contain.result.status == 0, "stderr: \(contain.result.stderr)")
            let pixels = try PNGFile.read(path: contain.out)
            #expect(pixels.rgba[3] == 0, "contain leaves the top band clear")
            let cover = try Self.render(["--image", path, "--fit", "cover"], preset: "tilt-specular")
            #expect(cover.result.status == 0)
            #expect(try PNGFile.read(path: cover.out).rgba[3] == 255)
        }
    }

    @Test(arguments: [
        ("missing", "No such file or directory; check the path"),
        ("truncated", "the PNG data is cut short or damaged"),
        ("corrupt", "the JPEG data is cut short or damaged"),
        ("text", "not a picture tilt reads"),
        ("empty", "the file is empty"),
    ])
    func badPicturesExitOneNamingTheFile(kind: String, expected: String) throws {
        let png = try TestPictures.png(TestPictures.pattern(width: 64, height: 64))
        var jpeg = try TestPictures.jpeg(TestPictures.pattern(width: 64, height: 64))
        for i in 2..<60 { jpeg[i] = 0xFF }
        let path: String =
            switch kind {
            case "missing": "/tmp/no-such-picture-\(getpid()).png"
            case "truncated": try TestPictures.file(Array(png.prefix(png.count / 2)), name: "cut.png")
            case "corrupt": try TestPictures.file(jpeg, name: "bad.jpg")
            case "text": try TestPictures.file(Array("just text\n".utf8), name: "notes.png")
            default: try TestPictures.file([], name: "empty.png")
            }
        let (r, out) = try Self.render(["--image", path])
        #expect(r.status == 1, "stderr: \(r.stderr)")
        #expect(r.stderr.hasPrefix("error: cannot use image \(path): "), "stderr: \(r.stderr)")
        #expect(r.stderr.contains(expected), "stderr: \(r.stderr)")
        #expect(!r.stderr.contains("Usage"))
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func fitWithoutAnImageOrAnUnknownFitIsAUsageMistake() throws {
        let alone = try Self.render(["--fit", "cover"])
        #expect(alone.result.status == 64)
        #expect(alone.result.stderr.contains("--fit places the picture of --image; add --image FILE"))
        let path = try TestPictures.file(try TestPictures.png(TestPictures.pattern(width: 4, height: 4)), name: "a.png")
        let unknown = try Self.render(["--image", path, "--fit", "zoom"])
        #expect(unknown.result.status == 64)
        #expect(unknown.result.stderr.contains("contain"), "stderr: \(unknown.result.stderr)")
    }

    @Test func aPictureOverTheGLsLargestTextureIsShrunkWithANotice() throws {
        // 16385 wide: one over llvmpipe's GL_MAX_TEXTURE_SIZE, yet only 128 KiB of pixels.
        let wide = DecodedImage(width: 16385, height: 2, pixels: [UInt8](repeating: 180, count: 16385 * 2 * 4))
        let path = try TestPictures.file(try TestPictures.png(wide), name: "wide.png")
        let (r, out) = try Self.render(["--image", path])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("notice: picture \(path) is 16385x2, larger than this GL's GL_MAX_TEXTURE_SIZE"))
        #expect(r.stderr.contains("drawing it shrunk to 8193x1"))
        #expect(FileManager.default.fileExists(atPath: out))
    }

    @Test func anUndeclaredTextureNameIsAnErrorNamingEffectAndArgument() throws {
        let copy = try GLTestEnvironment.copyPreset("holo-card")
        let file = copy.directory + "/preset.json"
        let json = try String(contentsOfFile: file, encoding: .utf8)
        try json.replacingOccurrences(of: #""texture": "foilPattern""#, with: #""texture": "foilPatern""#)
            .write(toFile: file, atomically: true, encoding: .utf8)
        let (r, _) = try Self.render([], preset: "holo-card", presets: copy.root)
        #expect(r.status == 1)
        #expect(
            r.stderr.contains("effect 'holoFoil' argument 'foilPattern' samples texture 'foilPatern'"), "\(r.stderr)")
        #expect(r.stderr.contains("declared: foilMask, foilPattern"))
    }

    @Test func aDamagedTextureFileIsAnErrorNamingIt() throws {
        let copy = try GLTestEnvironment.copyPreset("holo-card")
        let mask = copy.directory + "/foil-mask.png"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: mask))
        try bytes.prefix(bytes.count - 30).write(to: URL(fileURLWithPath: mask))
        let (r, out) = try Self.render([], preset: "holo-card", presets: copy.root)
        #expect(r.status == 1)
        #expect(
            r.stderr.contains("error: cannot use image \(mask): the PNG data is cut short or damaged"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        try FileManager.default.removeItem(atPath: mask)
        let missing = try Self.render([], preset: "holo-card", presets: copy.root)
        #expect(missing.result.status == 1)
        #expect(missing.result.stderr.contains("textures.foilMask.file: texture file 'foil-mask.png' not found"))
    }

    @Test func runHeadlessShowsAPictureAndRefusesABadOne() throws {
        let path = try TestPictures.file(
            try TestPictures.png(TestPictures.pattern(width: 20, height: 20)), name: "r.png")
        let socket = TestPaths.temporaryDirectory("pic").appendingPathComponent("none.sock").path
        let ok = try TiltFXProcess.run([
            "run", "--headless", "--presets", Self.presets, "--preset", "holo-card", "--size", "32x32", "--seconds",
            "0.3", "--socket", socket, "--image", path, "--fit", "stretch",
        ])
        #expect(ok.status == 0, "stderr: \(ok.stderr)")
        let bad = try TiltFXProcess.run([
            "run", "--headless", "--presets", Self.presets, "--preset", "holo-card", "--seconds", "0.3", "--socket",
            socket, "--image", "/tmp/no-such-\(getpid()).jpg",
        ])
        #expect(bad.status == 1)
        #expect(bad.stderr.hasPrefix("error: cannot use image /tmp/no-such-\(getpid()).jpg: No such file"))
    }

    @Test func aSequenceDrivenByALogShadesThePictureInEveryFrame() throws {
        let path = try TestPictures.file(
            try TestPictures.jpeg(TestPictures.pattern(width: 24, height: 24)), name: "s.jpg")
        let folder = TestPaths.temporaryDirectory("seq").path
        let r = try TiltFXProcess.run([
            "render", "--presets", Self.presets, "--preset", "foil", "--size", "24x24", "--frames", "2", "--replay",
            TestPaths.broadExcerpt, "--out", folder, "--image", path, "--fit", "stretch",
        ])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let plain = try TiltFXProcess.run([
            "render", "--presets", Self.presets, "--preset", "foil", "--size", "24x24", "--frames", "1", "--replay",
            TestPaths.broadExcerpt, "--out", folder + "/plain",
        ])
        #expect(plain.status == 0)
        let first = try PNGFile.read(path: folder + "/frame-00000.png")
        let second = try PNGFile.read(path: folder + "/frame-00001.png")
        let without = try PNGFile.read(path: folder + "/plain/frame-00000.png")
        #expect(ImageDifference(first.rgba, without.rgba).meanAbsolute > 5, "the picture replaces the brushed plate")
        #expect(ImageDifference(first.rgba, second.rgba).meanAbsolute < 20)
    }

    @Test func benchMeasuresPresetsOnAPicture() throws {
        let path = try TestPictures.file(
            try TestPictures.jpeg(TestPictures.pattern(width: 40, height: 30)), name: "b.jpg")
        let r = try TiltFXProcess.run([
            "bench", "--presets", Self.presets, "--preset", "foil", "--preset", "holo-card", "--size", "32x32",
            "--seconds", "0.2", "--image", path,
        ])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(r.stdout.contains("picture: \(path) (40x30, --fit contain)"))
        #expect(r.stdout.components(separatedBy: "\n").filter { $0.contains(" fps") }.count == 2, "\(r.stdout)")
    }
}
