import Foundation
import Testing
import TiltEffects
import TiltGL
import TiltImage
import TiltRender
import TiltRenderTestKit

/// The default wallpaper, `depth`: the user's picture behind the glass, shifted against the tilt, its edge never
/// shown, with a sheen that is nothing at level (llvmpipe).
struct DepthPresetTests {
    private let size = 200

    /// A picture of `size`², made here: `color(x, y)` per pixel.
    private func picture(_ color: (Int, Int) -> [UInt8]) -> PictureContent {
        var pixels: [UInt8] = []
        for y in 0..<size {
            for x in 0..<size { pixels += color(x, y) }
        }
        return PictureContent(
            image: DecodedImage(width: size, height: size, pixels: pixels), path: "made-here", fit: .cover)
    }

    private func render(_ picture: PictureContent, tilt: SIMD2<Double>) throws -> DecodedImage {
        let preset = try GLTestEnvironment.library.load("depth")
        let pixels = try PictureRenderTests.render(preset, picture: picture, size: [size, size], tilt: tilt)
        return DecodedImage(width: size, height: size, pixels: pixels)
    }

    @Test func thePictureShiftsAgainstTheTiltAndLeansInPerspective() throws {
        // Red grows to the right, green downwards: the centre pixel says where the picture was sampled.
        let ramp = picture { x, y in [UInt8(x * 255 / (size - 1)), UInt8(y * 255 / (size - 1)), 0, 255] }
        // The ramp has no blue: the sheen (near white) adds about as much to each channel, so blue measures it.
        func centre(_ tilt: SIMD2<Double>) throws -> SIMD4<Int> {
            let p = SIMD4<Int>(truncatingIfNeeded: try render(ramp, tilt: tilt).pixel(x: size / 2, y: size / 2))
            return SIMD4(p[0] - p[2], p[1] - p[2], p[2], p[3])
        }
        let level = try centre([0, 0])
        #expect(abs(level[0] - 128) <= 3 && abs(level[1] - 128) <= 3, "level: \(level)")
        // The right edge away (tilt.y > 0): the view reaches further to the picture's left, so the centre is redder
        // less; the other way, more. The top edge nearer (tilt.x > 0): the view reaches up, less green.
        let rightAway = try centre([0, 0.3])
        let leftAway = try centre([0, -0.3])
        let topNear = try centre([0.3, 0])
        #expect(rightAway[0] + 1 < level[0] && leftAway[0] > level[0] + 1, "\(rightAway) \(level) \(leftAway)")
        #expect(abs(rightAway[1] - level[1]) <= 2)
        #expect(topNear[1] + 1 < level[1], "\(topNear) \(level)")
        // Perspective: with the right edge away, the picture's right half is seen smaller (more of it in the same
        // pixels), so red changes faster across the right half than across the left.
        let leaning = try render(ramp, tilt: [0, 0.6])
        func red(_ x: Int) -> Int {
            let p = leaning.pixel(x: x, y: size / 2)
            return Int(p[0]) - Int(p[2])
        }
        let leftSpan = red(size / 2) - red(10)
        let rightSpan = red(size - 11) - red(size / 2)
        #expect(rightSpan > leftSpan, "left half spans \(leftSpan), right half \(rightSpan)")
    }

    @Test func thePicturesEdgeNeverShowsAtAnyTilt() throws {
        // A 1-pixel magenta frame around grey: magnified just enough, no tilt brings the frame into view.
        let framed = picture { x, y in
            min(x, y, size - 1 - x, size - 1 - y) < 1 ? [255, 0, 255, 255] : [100, 110, 120, 255]
        }
        for tilt: SIMD2<Double> in [[3, 3], [-3, -3], [3, -3], [-3, 3], [0, 3], [3, 0]] {
            let shot = try render(framed, tilt: tilt)
            var magenta = 0
            for y in 0..<size {
                for x in 0..<size {
                    let p = shot.pixel(x: x, y: y)
                    if p[1] < 90 && p[0] > 150 && p[2] > 150 { magenta += 1 }
                }
            }
            #expect(magenta == 0, "tilt \(tilt): \(magenta) pixels of the picture's edge show")
        }
    }

    @Test func atLevelThereIsNoSheenAndATiltBrightensOneSide() throws {
        let grey = picture { _, _ in [100, 110, 120, 255] }
        let level = try render(grey, tilt: [0, 0])
        var worst = 0
        for i in stride(from: 0, to: level.pixels.count, by: 4) {
            for c in 0..<3 { worst = max(worst, abs(Int(level.pixels[i + c]) - [100, 110, 120][c])) }
        }
        #expect(worst <= 1, "the level picture differs from the user's by \(worst)")
        // Tilted, a faint highlight: brighter somewhere, never by more than a sheen (strength 0.06 of #fff8ee).
        let tilted = try render(grey, tilt: [0.3, 0.3])
        let brightest = stride(from: 0, to: tilted.pixels.count, by: 4).map { Int(tilted.pixels[$0]) }.max() ?? 0
        #expect(brightest > 103 && brightest <= 100 + 17, "the sheen's brightest red is \(brightest)")
    }
}
