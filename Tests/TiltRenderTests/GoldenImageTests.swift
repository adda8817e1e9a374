import Foundation
import Testing
import TiltImage
import TiltRender
import TiltRenderTestKit

/// Every preset at three tilts, compared with committed 96×96 images.
///
/// Regenerate after an intended visual change with `TILT_UPDATE_GOLDEN=1 swift test --filter GoldenImageTests`,
/// look at the images, and commit them.
@Suite(.serialized) struct GoldenImageTests {
    static let presets = ["tilt-specular", "holo-card", "foil", "parallax", "shadertoy-plasma", "misty-glass", "depth"]
    static let tilts: [(name: String, tilt: SIMD2<Double>)] = [
        ("flat", [0, 0]), ("right-away", [0.1, 0.3]), ("top-away", [-0.3, -0.15]),
    ]
    static let size = 96

    @Test(arguments: presets)
    func matchesGolden(preset: String) throws {
        let update = ProcessInfo.processInfo.environment["TILT_UPDATE_GOLDEN"] == "1"
        for (name, tilt) in Self.tilts {
            let pixels = try GLTestEnvironment.render(preset, size: Self.size, tilt: tilt)
            let path = GLTestEnvironment.goldenDirectory.appendingPathComponent("\(preset)-\(name).png").path
            if update {
                try FileManager.default.createDirectory(
                    at: GLTestEnvironment.goldenDirectory, withIntermediateDirectories: true)
                try PNGFile.write(rgba: pixels, width: Self.size, height: Self.size, to: path)
                continue
            }
            guard FileManager.default.fileExists(atPath: path) else {
                Issue.record("no golden image \(path); run with TILT_UPDATE_GOLDEN=1 to record it")
                continue
            }
            let golden = try PNGFile.read(path: path)
            try #require(golden.width == Self.size && golden.height == Self.size)
            let diff = ImageDifference(pixels, golden.rgba)
            // llvmpipe versions differ in the last bits of transcendental functions: allow a little noise.
            #expect(diff.meanAbsolute < 2.0, "\(preset) \(name): mean difference \(diff.meanAbsolute)")
            #expect(diff.fractionOver32 < 0.01, "\(preset) \(name): \(diff.fractionOver32 * 100)% of pixels differ")
        }
    }

    @Test func sameArgumentsGiveTheSamePixels() throws {
        let a = try GLTestEnvironment.render("holo-card", size: 64, tilt: [0.2, -0.1], time: 1.5)
        let b = try GLTestEnvironment.render("holo-card", size: 64, tilt: [0.2, -0.1], time: 1.5)
        #expect(a == b)
    }

    @Test func differentTiltsGiveDifferentImages() throws {
        for preset in Self.presets {
            let a = try GLTestEnvironment.render(preset, size: 48, tilt: [0, 0])
            let b = try GLTestEnvironment.render(preset, size: 48, tilt: [0.3, 0.3])
            #expect(ImageDifference(a, b).meanAbsolute > 1, "\(preset) does not react to tilt")
        }
    }
}
