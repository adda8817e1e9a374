import Foundation
import Testing
import TiltEffects
import TiltGL
import TiltImage
import TiltRender
import TiltRenderTestKit
import TiltTestKit

/// The user's picture as the content presets shade (llvmpipe): colour and alpha kept, fits, the foil mask, goldens.
@Suite(.serialized) struct PictureRenderTests {
    /// Renders `preset` on `picture` at `size`.
    static func render(
        _ preset: Preset, picture: PictureContent?, size: SIMD2<Int>, tilt: SIMD2<Double> = .zero
    ) throws -> [UInt8] {
        _ = GLTestEnvironment.configured
        let renderer = try OffscreenRenderer(preset: preset, width: size.x, height: size.y, picture: picture)
        return try renderer.render(
            FrameInputs(time: 0, size: SIMD2(Double(size.x), Double(size.y)), tilt: tilt))
    }

    /// A preset whose one effect passes its colour through unchanged.
    static func passThrough() throws -> Preset {
        let dir = TestPaths.temporaryDirectory("keep")
        try "vec4 keep(vec2 position, vec4 color) { return color; }\n".write(
            to: dir.appendingPathComponent("keep.glsl"), atomically: true, encoding: .utf8)
        try #"{"effects": [{"kind": "color", "function": "keep", "file": "keep.glsl"}]}"#.write(
            to: dir.appendingPathComponent("preset.json"), atomically: true, encoding: .utf8)
        return try Preset.load(directory: dir.path)
    }

    /// A PNG and a JPEG of the test pattern, decoded through the files as `tiltfx --image` reads them.
    static func pictures(width: Int, height: Int) throws -> (png: PictureContent, jpeg: PictureContent) {
        let image = TestPictures.pattern(width: width, height: height, alpha: true)
        let png = try TestPictures.file(try TestPictures.png(image), name: "p.png")
        let jpeg = try TestPictures.file(try TestPictures.jpeg(image), name: "p.jpg")
        return (try PictureContent.load(path: png), try PictureContent.load(path: jpeg))
    }

    @Test func aPictureAtItsOwnSizeComesOutWithItsColourAndAlpha() throws {
        let picture = try Self.pictures(width: 40, height: 30).png
        let out = try Self.render(try Self.passThrough(), picture: picture, size: [40, 30])
        var worst = 0
        for i in stride(from: 0, to: out.count, by: 4) {
            let a = Int(picture.image.pixels[i + 3])
            #expect(abs(Int(out[i + 3]) - a) <= 1, "alpha at \(i / 4)")
            // Colour survives the 8-bit premultiplied target well where the pixel is not nearly clear.
            guard a >= 128 else { continue }
            for c in 0..<3 { worst = max(worst, abs(Int(out[i + c]) - Int(picture.image.pixels[i + c]))) }
        }
        #expect(worst <= 2, "colour off by \(worst)")
    }

    @Test func fitsPlaceThePictureAsTheyShould() throws {
        let image = TestPictures.pattern(width: 40, height: 20)
        let path = try TestPictures.file(try TestPictures.png(image), name: "wide.png")
        let keep = try Self.passThrough()
        func render(_ fit: PictureContent.Fit) throws -> DecodedImage {
            let pixels = try Self.render(keep, picture: try PictureContent.load(path: path, fit: fit), size: [80, 80])
            return DecodedImage(width: 80, height: 80, pixels: pixels)
        }
        let contain = try render(.contain)
        #expect(contain.pixel(x: 40, y: 10).w == 0, "contain leaves the band above the picture clear")
        #expect(contain.pixel(x: 40, y: 70).w == 0)
        #expect(contain.pixel(x: 40, y: 40).w == 255)
        #expect(contain.pixel(x: 0, y: 30).x < 8, "contain shows the picture's left edge")
        let cover = try render(.cover)
        #expect((0..<80).allSatisfy { cover.pixel(x: 40, y: $0).w == 255 }, "cover fills the frame")
        #expect(cover.pixel(x: 0, y: 40).x > 40, "cover cuts the picture's left part off")
        let stretch = try render(.stretch)
        #expect(stretch.pixel(x: 0, y: 0).w == 255 && stretch.pixel(x: 79, y: 79).w == 255)
        #expect(stretch.pixel(x: 0, y: 0).x < 8 && stretch.pixel(x: 79, y: 79).x > 245)
        #expect(stretch.pixel(x: 79, y: 79).y > 245, "stretch reaches the picture's bottom row")
    }

    @Test func everyBundledPresetShadesAPicture() throws {
        let picture = try Self.pictures(width: 48, height: 36).jpeg
        for name in GoldenImageTests.presets {
            let preset = try GLTestEnvironment.library.load(name)
            let plain = try Self.render(preset, picture: nil, size: [48, 48], tilt: [0.2, -0.1])
            let shaded = try Self.render(preset, picture: picture, size: [48, 48], tilt: [0.2, -0.1])
            #expect(ImageDifference(plain, shaded).meanAbsolute > 1, "\(name) ignores the picture")
        }
    }

    @Test func holoCardsFoilMaskLeavesThePictureUntouchedOutsideIt() throws {
        // The shipped mask is 126x176 and clear (no foil) over the text box, u 0.08–0.92, v 0.6–0.9 of the card.
        let (w, h) = (126, 176)
        let image = TestPictures.pattern(width: w, height: h)
        let path = try TestPictures.file(try TestPictures.png(image), name: "card.png")
        let preset = try GLTestEnvironment.library.load("holo-card")
        let out = DecodedImage(
            width: w, height: h,
            pixels: try Self.render(preset, picture: try PictureContent.load(path: path), size: [w, h]))
        // Away from the mask's edges by more than the bloom's reach (6 px) and a filtered texel.
        var worst = 0
        for y in 116...150 {
            for x in 20...106 {
                let a = out.pixel(x: x, y: y)
                let b = image.pixel(x: x, y: y)
                for c in 0..<4 { worst = max(worst, abs(Int(a[c]) - Int(b[c]))) }
            }
        }
        #expect(worst <= 2, "outside the mask the picture changed by \(worst)")
        // Inside it (the art window) the foil shows.
        var changed = 0
        for y in 30...90 {
            for x in 20...106 where out.pixel(x: x, y: y) != image.pixel(x: x, y: y) { changed += 1 }
        }
        #expect(changed > 61 * 87 / 2, "the foil shows on only \(changed) pixels of the art window")
    }

    @Test func savingATextureFileIsSeenAndReloads() throws {
        _ = GLTestEnvironment.configured
        let copy = try GLTestEnvironment.copyPreset("holo-card")
        let mask = copy.directory + "/foil-mask.png"
        let preset = try Preset.load(directory: copy.directory)
        #expect(preset.files.contains(mask))
        let picture = try Self.pictures(width: 48, height: 64).png
        let renderer = try OffscreenRenderer(preset: preset, width: 48, height: 64, picture: picture)
        let inputs = FrameInputs(size: [48, 64])
        let before = try renderer.render(inputs)
        let watcher = try FileWatcher(files: preset.files)
        // A mask with no foil anywhere: the picture alone.
        let clear = DecodedImage(width: 2, height: 2, pixels: [UInt8](repeating: 0, count: 16))
        try Data(try TestPictures.png(clear, kind: .gray)).write(to: URL(fileURLWithPath: mask))
        #expect(watcher.waitForChange(timeoutMilliseconds: 1000))
        try renderer.reload(try Preset.load(directory: copy.directory))
        let after = try renderer.render(inputs)
        #expect(after != before)
        let alone = try Self.render(try Self.passThrough(), picture: picture, size: [48, 64])
        #expect(ImageDifference(after, alone).meanAbsolute < 0.5, "a clear mask leaves the picture alone")
    }

    static let goldenCases: [(preset: String, format: String)] = [
        ("holo-card", "png"), ("foil", "jpeg"), ("tilt-specular", "png"), ("parallax", "jpeg"), ("depth", "jpeg"),
    ]

    /// Goldens of presets on a PNG (with alpha) and a JPEG picture made here; regenerate like GoldenImageTests.
    @Test(arguments: goldenCases.map { "\($0.preset)-\($0.format)" })
    func matchesGoldenOnAPicture(name: String) throws {
        let parts = name.split(separator: "-")
        let format = String(parts.last!)
        let preset = parts.dropLast().joined(separator: "-")
        let pictures = try Self.pictures(width: 72, height: 54)
        let pixels = try Self.render(
            try GLTestEnvironment.library.load(preset), picture: format == "png" ? pictures.png : pictures.jpeg,
            size: [96, 96], tilt: [0.1, 0.3])
        let path = GLTestEnvironment.goldenDirectory.appendingPathComponent("picture-\(name).png").path
        if ProcessInfo.processInfo.environment["TILT_UPDATE_GOLDEN"] == "1" {
            try PNGFile.write(rgba: pixels, width: 96, height: 96, to: path)
            return
        }
        let golden = try PNGFile.read(path: path)
        let diff = ImageDifference(pixels, golden.rgba)
        #expect(diff.meanAbsolute < 2.0, "\(name): mean difference \(diff.meanAbsolute)")
        #expect(diff.fractionOver32 < 0.01, "\(name): \(diff.fractionOver32 * 100)% of pixels differ")
    }
}
