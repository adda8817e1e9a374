import Testing
import TiltRender
import TiltRenderTestKit

/// Tilting moves the highlight the way a mirror-like card lit from the viewer would.
@Suite(.serialized) struct HighlightTests {
    /// The centroid (x right, y down, pixels) of the pixels within 10% of the brightest luminance.
    static func brightCentroid(_ rgba: [UInt8], size: Int) -> SIMD2<Double> {
        var lum = [Double](repeating: 0, count: size * size)
        for i in 0..<(size * size) {
            lum[i] = 0.2126 * Double(rgba[4 * i]) + 0.7152 * Double(rgba[4 * i + 1]) + 0.0722 * Double(rgba[4 * i + 2])
        }
        let top = lum.max() ?? 0
        var sum = SIMD2<Double>.zero
        var n = 0.0
        for i in 0..<lum.count where lum[i] >= 0.9 * top {
            sum += SIMD2(Double(i % size), Double(i / size))
            n += 1
        }
        return sum / max(n, 1)
    }

    static let size = 128

    @Test(arguments: ["tilt-specular", "foil"])
    func rightEdgeAwayMovesHighlightLeft(preset: String) throws {
        let flat = Self.brightCentroid(
            try GLTestEnvironment.render(preset, size: Self.size, tilt: [0, 0]), size: Self.size)
        let away = Self.brightCentroid(
            try GLTestEnvironment.render(preset, size: Self.size, tilt: [0, 0.2]), size: Self.size)
        let toward = Self.brightCentroid(
            try GLTestEnvironment.render(preset, size: Self.size, tilt: [0, -0.2]), size: Self.size)
        #expect(abs(flat.x - 64) < 4)
        #expect(away.x < flat.x - 15, "tilt y +0.2: \(away) vs flat \(flat)")
        #expect(toward.x > flat.x + 15, "tilt y -0.2: \(toward) vs flat \(flat)")
    }

    @Test func topTowardViewerMovesHighlightUp() throws {
        let flat = Self.brightCentroid(
            try GLTestEnvironment.render("tilt-specular", size: Self.size, tilt: [0, 0]), size: Self.size)
        let up = Self.brightCentroid(
            try GLTestEnvironment.render("tilt-specular", size: Self.size, tilt: [0.2, 0]), size: Self.size)
        let down = Self.brightCentroid(
            try GLTestEnvironment.render("tilt-specular", size: Self.size, tilt: [-0.2, 0]), size: Self.size)
        #expect(up.y < flat.y - 15)
        #expect(down.y > flat.y + 15)
        #expect(abs(up.x - flat.x) < 3)
    }

    /// Mean luminance of the left half minus that of the right half.
    static func leftMinusRight(_ rgba: [UInt8], size: Int) -> Double {
        var balance = 0.0
        for i in 0..<(size * size) {
            let l = 0.2126 * Double(rgba[4 * i]) + 0.7152 * Double(rgba[4 * i + 1]) + 0.0722 * Double(rgba[4 * i + 2])
            balance += (i % size) < size / 2 ? l : -l
        }
        return balance / Double(size * size / 2)
    }

    @Test func holoCardGlareFollowsTheTilt() throws {
        // The card's art is busy, so compare the halves' brightness rather than the brightest pixels.
        let left = Self.leftMinusRight(
            try GLTestEnvironment.render("holo-card", size: Self.size, tilt: [0, 0.25]), size: Self.size)
        let right = Self.leftMinusRight(
            try GLTestEnvironment.render("holo-card", size: Self.size, tilt: [0, -0.25]), size: Self.size)
        #expect(left > 5, "right edge away: the glare should brighten the left half (\(left))")
        #expect(right < -5, "left edge away: the glare should brighten the right half (\(right))")
    }
}
