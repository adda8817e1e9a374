import FoundationEssentials
import Glibc

/// The sRGB transfer function both ways, for texels prepared on the CPU.
enum SRGBTransfer {
    /// The linear value of each sRGB-encoded byte.
    static let linear: [Float] = (0..<256).map { i in
        let c = Float(i) / 255
        return c <= 0.04045 ? c / 12.92 : powf((c + 0.055) / 1.055, 2.4)
    }

    /// The sRGB-encoded byte nearest to linear value `v` (clamped to 0…1).
    static func encode(_ v: Float) -> UInt8 {
        let c = min(max(v, 0), 1)
        let e = c <= 0.0031308 ? c * 12.92 : 1.055 * powf(c, 1 / 2.4) - 0.055
        return UInt8((e * 255).rounded())
    }
}

extension DecodedImage {
    /// The pixels premultiplied by alpha, for a texture.
    ///
    /// With `sRGB`, colour is multiplied in linear light and encoded again, so that a `GL_SRGB8_ALPHA8` texture
    /// decodes to linear premultiplied colour and filters correctly; otherwise the bytes are multiplied as they are.
    /// Opaque and fully transparent pixels need no arithmetic.
    package func premultipliedTexels(sRGB: Bool) -> [UInt8] {
        var out = pixels
        let lut = SRGBTransfer.linear
        for i in stride(from: 0, to: out.count, by: 4) {
            let a = out[i + 3]
            if a == 255 { continue }
            if a == 0 {
                out[i] = 0
                out[i + 1] = 0
                out[i + 2] = 0
                continue
            }
            for c in i..<(i + 3) {
                if sRGB {
                    out[c] = SRGBTransfer.encode(lut[Int(out[c])] * Float(a) / 255)
                } else {
                    out[c] = UInt8((Int(out[c]) * Int(a) + 127) / 255)
                }
            }
        }
        return out
    }

    /// A copy shrunk by the smallest whole factor that makes both sides at most `maxSide`: each pixel is the
    /// alpha-weighted mean, in linear light, of the block it covers (blocks at the right and bottom edges may be
    /// partial). Returns `self` when it already fits.
    package func downscaled(toFit maxSide: Int) -> DecodedImage {
        let factor = (max(width, height) + maxSide - 1) / maxSide
        guard factor > 1 else { return self }
        let w = (width + factor - 1) / factor
        let h = (height + factor - 1) / factor
        let lut = SRGBTransfer.linear
        var out = [UInt8](repeating: 0, count: w * h * 4)
        for y in 0..<h {
            for x in 0..<w {
                var sum = SIMD4<Float>.zero
                var count: Float = 0
                for sy in (y * factor)..<min(height, (y + 1) * factor) {
                    var i = (sy * width + x * factor) * 4
                    for _ in (x * factor)..<min(width, (x + 1) * factor) {
                        let a = Float(pixels[i + 3]) / 255
                        sum += SIMD4(
                            lut[Int(pixels[i])] * a, lut[Int(pixels[i + 1])] * a, lut[Int(pixels[i + 2])] * a, a)
                        count += 1
                        i += 4
                    }
                }
                let o = (y * w + x) * 4
                out[o + 3] = UInt8((sum.w / count * 255).rounded())
                guard sum.w > 0 else { continue }
                out[o] = SRGBTransfer.encode(sum.x / sum.w)
                out[o + 1] = SRGBTransfer.encode(sum.y / sum.w)
                out[o + 2] = SRGBTransfer.encode(sum.z / sum.w)
            }
        }
        return DecodedImage(width: w, height: h, pixels: out)
    }

    /// `texels` (this image's size, 4 bytes a pixel) with the rows in the opposite order, for a texture sampled with
    /// GL's bottom-left origin.
    package func flippingRows(of texels: [UInt8]) -> [UInt8] {
        let stride = width * 4
        var out = [UInt8]()
        out.reserveCapacity(texels.count)
        for y in (0..<height).reversed() { out.append(contentsOf: texels[(y * stride)..<((y + 1) * stride)]) }
        return out
    }
}
