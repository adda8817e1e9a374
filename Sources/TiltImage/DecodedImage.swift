/// A decoded picture: RGBA8, rows top-down, straight (not premultiplied) alpha, sRGB-encoded values.
public struct DecodedImage: Sendable, Hashable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width * height * 4` bytes: red, green, blue, alpha; the top row first.
    public let pixels: [UInt8]

    /// An image from its parts.
    /// - Precondition: `pixels.count == width * height * 4`.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width > 0 && height > 0 && pixels.count == width * height * 4, "RGBA8 pixels of width×height")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The RGBA bytes of the pixel at column `x`, row `y` (from the top).
    public func pixel(x: Int, y: Int) -> SIMD4<UInt8> {
        let i = (y * width + x) * 4
        return SIMD4(pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
    }
}
