/// A decoded picture: RGBA8, rows top-down, straight (not premultiplied) alpha, sRGB-encoded values.
package struct DecodedImage: Sendable, Hashable {
    /// Width in pixels.
    package let width: Int
    /// Height in pixels.
    package let height: Int
    /// `width * height * 4` bytes: red, green, blue, alpha; the top row first.
    package let pixels: [UInt8]

    /// An image from its parts.
    /// - Precondition: `pixels.count == width * height * 4`.
    package init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width > 0 && height > 0 && pixels.count == width * height * 4, "RGBA8 pixels of width×height")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The RGBA bytes of the pixel at column `x`, row `y` (from the top).
    package func pixel(x: Int, y: Int) -> SIMD4<UInt8> {
        let i = (y * width + x) * 4
        return SIMD4(pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
    }
}
