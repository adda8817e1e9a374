import CPNG
import FoundationEssentials
import Glibc
import TiltCore

/// PNG encoding and decoding through libpng's simplified API (no `setjmp`), with file errors that say what to do.
package enum PNGFile {
    /// Encodes straight-alpha RGBA8 pixels, top row first.
    /// - Throws: `PNGFileError` (``PNGFileError/Kind/write``) when libpng refuses the image.
    package static func encode(rgba: [UInt8], width: Int, height: Int) throws(PNGFileError) -> [UInt8] {
        var image = png_image()
        image.version = tilt_png_image_version
        image.width = png_uint_32(width)
        image.height = png_uint_32(height)
        image.format = tilt_png_format_rgba
        var size: Int = 0
        let probe = rgba.withUnsafeBytes { png_image_write_to_memory(&image, nil, &size, 0, $0.baseAddress, 0, nil) }
        guard probe != 0, size > 0 else { throw PNGFileError(.write, path: "(memory)", reason: message(image)) }
        var out = [UInt8](repeating: 0, count: size)
        let ok = rgba.withUnsafeBytes { pixels in
            out.withUnsafeMutableBytes {
                png_image_write_to_memory(&image, $0.baseAddress, &size, 0, pixels.baseAddress, 0, nil)
            }
        }
        guard ok != 0 else { throw PNGFileError(.write, path: "(memory)", reason: message(image)) }
        return Array(out.prefix(size))
    }

    /// Writes pixels to `path` as PNG.
    /// - Throws: `PNGFileError` (``PNGFileError/Kind/write``) saying whether the folder is missing, the disk is full or access is denied.
    package static func write(rgba: [UInt8], width: Int, height: Int, to path: String) throws(PNGFileError) {
        let bytes = try encode(rgba: rgba, width: width, height: height)
        try writeFile(bytes, to: path)
    }

    /// Writes `bytes` to `path`, replacing it, with an actionable message on failure.
    ///
    /// Re-rendering over the last image is the point of `--out` (and of `--watch`), so an existing file is replaced
    /// without `--force`; but through ``AtomicFileOutput``, so a viewer never shows a half-written PNG and a failed
    /// write keeps the previous image.
    package static func writeFile(_ bytes: [UInt8], to path: String) throws(PNGFileError) {
        do {
            let output = try AtomicFileOutput(path: path, replacing: true)
            try output.write(bytes)
            try output.commit()
        } catch {
            throw PNGFileError(writing: path, error)
        }
    }

    /// Decodes a PNG file into straight-alpha RGBA8, top row first.
    package static func read(path: String) throws(PNGFileError) -> (rgba: [UInt8], width: Int, height: Int) {
        var image = png_image()
        image.version = tilt_png_image_version
        guard png_image_begin_read_from_file(&image, path) != 0 else {
            throw PNGFileError(.read, path: path, reason: message(image))
        }
        image.format = tilt_png_format_rgba
        let width = Int(image.width)
        let height = Int(image.height)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let ok = pixels.withUnsafeMutableBytes { png_image_finish_read(&image, nil, $0.baseAddress, 0, nil) }
        guard ok != 0 else { throw PNGFileError(.read, path: path, reason: message(image)) }
        return (pixels, width, height)
    }

    private static func message(_ image: png_image) -> String {
        var m = image.message
        return withUnsafeBytes(of: &m) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
