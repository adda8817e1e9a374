import CPNG
import CTurboJPEG
import Foundation
import Glibc
import TiltImage

/// Pictures made in the tests with the real libraries: PNG of each colour type through libpng, JPEG through
/// libjpeg-turbo.
public enum TestPictures {
    /// A picture with smooth gradients, a hard-edged block and (with `alpha`) a transparent corner, so a wrong row
    /// order, channel order, fit or alpha handling shows: red rises to the right, green downwards, blue is 96; the
    /// block is white; alpha falls to 0 towards the top-left corner when `alpha`.
    package static func pattern(width: Int, height: Int, alpha: Bool = false) -> DecodedImage {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                let block = x >= width / 2 && x < width * 3 / 4 && y >= height / 2 && y < height * 3 / 4
                pixels[i] = block ? 255 : UInt8(x * 255 / max(width - 1, 1))
                pixels[i + 1] = block ? 255 : UInt8(y * 255 / max(height - 1, 1))
                pixels[i + 2] = block ? 255 : 96
                pixels[i + 3] = alpha ? UInt8(min(255, (x + y) * 255 / max(width + height - 2, 1) * 2)) : 255
            }
        }
        return DecodedImage(width: width, height: height, pixels: pixels)
    }

    /// libpng's simplified-API format flags.
    public enum PNGKind: UInt32 {
        case gray = 0
        case rgb = 2
        case rgba = 3
        /// 16-bit linear RGB (libpng writes a gAMA 1.0 chunk).
        case linear16 = 6
        /// 8-bit palette, RGBA entries.
        case palette = 11
    }

    /// Encodes `image` as a PNG of `kind` (grey takes the red channel; palette needs at most 256 colours).
    package static func png(_ image: DecodedImage, kind: PNGKind = .rgba) throws -> [UInt8] {
        var png = png_image()
        png.version = tilt_png_image_version
        png.width = png_uint_32(image.width)
        png.height = png_uint_32(image.height)
        png.format = kind.rawValue
        var buffer: [UInt8] = []
        var colormap: [UInt8] = []
        switch kind {
        case .gray: buffer = stride(from: 0, to: image.pixels.count, by: 4).map { image.pixels[$0] }
        case .rgb: buffer = image.pixels.enumerated().filter { $0.offset % 4 != 3 }.map(\.element)
        case .rgba: buffer = image.pixels
        case .linear16:
            let linear: [UInt16] = image.pixels.enumerated().filter { $0.offset % 4 != 3 }.map {
                let c = Double($0.element) / 255
                let l = c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
                return UInt16((l * 65535).rounded())
            }
            buffer = linear.withUnsafeBytes { Array($0) }
        case .palette:
            var index: [SIMD4<UInt8>: UInt8] = [:]
            for i in stride(from: 0, to: image.pixels.count, by: 4) {
                let c = SIMD4(image.pixels[i], image.pixels[i + 1], image.pixels[i + 2], image.pixels[i + 3])
                if index[c] == nil {
                    guard index.count < 256 else { throw TestPictureError("more than 256 colours for a palette") }
                    index[c] = UInt8(index.count)
                    colormap += [c.x, c.y, c.z, c.w]
                }
                buffer.append(index[c]!)
            }
            png.colormap_entries = png_uint_32(colormap.count / 4)
        }
        var size = 0
        let probe = buffer.withUnsafeBytes { pixels in
            colormap.withUnsafeBytes {
                png_image_write_to_memory(&png, nil, &size, 0, pixels.baseAddress, 0, $0.baseAddress)
            }
        }
        guard probe != 0 else { throw TestPictureError("libpng refused the image") }
        var out = [UInt8](repeating: 0, count: size)
        let ok = buffer.withUnsafeBytes { pixels in
            colormap.withUnsafeBytes { map in
                out.withUnsafeMutableBytes {
                    png_image_write_to_memory(&png, $0.baseAddress, &size, 0, pixels.baseAddress, 0, map.baseAddress)
                }
            }
        }
        guard ok != 0 else { throw TestPictureError("libpng refused the image") }
        return Array(out.prefix(size))
    }

    /// Writes an Adam7-interlaced 8-bit RGBA PNG through libpng's full API (the simplified API writes no interlaced
    /// files). The input is valid, so libpng's error path, which needs `setjmp`, is never taken.
    package static func interlacedPNG(_ image: DecodedImage, to path: String) throws {
        guard let file = fopen(path, "wb") else { throw TestPictureError("cannot create \(path)") }
        defer { fclose(file) }
        var write = png_create_write_struct(tilt_png_libpng_version, nil, nil, nil)
        var info = png_create_info_struct(write)
        defer { png_destroy_write_struct(&write, &info) }
        png_init_io(write, file)
        png_set_IHDR(
            write, info, png_uint_32(image.width), png_uint_32(image.height), 8, PNG_COLOR_TYPE_RGBA,
            PNG_INTERLACE_ADAM7, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT)
        png_write_info(write, info)
        _ = png_set_interlace_handling(write)
        var rows = image.pixels
        rows.withUnsafeMutableBytes { raw in
            let base = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            var pointers: [UnsafeMutablePointer<UInt8>?] = (0..<image.height).map { base + $0 * image.width * 4 }
            pointers.withUnsafeMutableBufferPointer { png_write_image(write, $0.baseAddress) }
        }
        png_write_end(write, nil)
    }

    /// Encodes `image` as a baseline JPEG (alpha dropped) at `quality`; `gray` writes one channel.
    package static func jpeg(_ image: DecodedImage, quality: Int32 = 95, gray: Bool = false) throws -> [UInt8] {
        guard let handle = tjInitCompress() else { throw TestPictureError("no TurboJPEG compressor") }
        defer { tjDestroy(handle) }
        var out: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let status = image.pixels.withUnsafeBufferPointer {
            tjCompress2(
                handle, $0.baseAddress, Int32(image.width), 0, Int32(image.height), Int32(TJPF_RGBA.rawValue), &out,
                &size, Int32(gray ? TJSAMP_GRAY.rawValue : TJSAMP_444.rawValue), quality, 0)
        }
        defer { tjFree(out) }
        guard status == 0, let out else {
            throw TestPictureError("TurboJPEG: \(String(cString: tjGetErrorStr2(handle)))")
        }
        return Array(UnsafeBufferPointer(start: out, count: Int(size)))
    }

    /// Writes `bytes` to a new file in a fresh temporary folder and returns its path.
    public static func file(_ bytes: [UInt8], name: String) throws -> String {
        let path = TestPaths.temporaryDirectory("pic").appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A PNG whose header claims `width`×`height` (with a valid CRC) but holds no pixel data.
    public static func pngHeaderClaiming(width: UInt32, height: UInt32) throws -> [UInt8] {
        var bytes = try png(pattern(width: 1, height: 1), kind: .rgba)
        // Signature (8), IHDR length (4) and type (4), then width and height, big-endian.
        for (offset, value) in [(16, width), (20, height)] {
            for k in 0..<4 { bytes[offset + k] = UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32(k))) }
        }
        let crc = crc32(bytes[12..<29])
        for k in 0..<4 { bytes[29 + k] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * UInt32(k))) }
        return bytes
    }

    /// CRC-32 as PNG chunks use it.
    public static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            c ^= UInt32(b)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return c ^ 0xFFFF_FFFF
    }
}

/// A test picture could not be made.
public struct TestPictureError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
