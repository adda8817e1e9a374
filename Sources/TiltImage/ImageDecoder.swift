import CPNG
import CTurboJPEG
import Glibc
import TiltCore

/// Decodes PNG (libpng) and JPEG (libjpeg-turbo) files into ``DecodedImage``, recognising the format by its first
/// bytes, not by the file's extension.
///
/// PNG files of every kind decode (1 to 16 bits, grey, palette, with or without alpha, interlaced); a `gAMA` chunk is
/// honoured and a 16-bit file without one is taken as sRGB. JPEG files decode as opaque RGB (grey and YCbCr; CMYK is
/// refused). Embedded ICC profiles and EXIF orientation are not applied. A file that is cut short or damaged is an
/// ``ImageError``, never a crash: libpng's simplified API and TurboJPEG both catch the libraries' own `longjmp`
/// errors in C.
package enum ImageDecoder {
    /// The most pixels a picture may have (a 16384×16384 picture, 1 GiB of RGBA), so that a damaged or hostile
    /// header cannot make tilt allocate without bound.
    package static let maxPixels = 16384 * 16384

    /// The formats recognised.
    package enum Format { case png, jpeg }

    /// Reads and decodes the picture at `path`.
    /// - Throws: `ImageError` naming the file and what is wrong with it.
    package static func load(path: String) throws(ImageError) -> DecodedImage {
        try decode(try readFile(path), path: path)
    }

    /// Decodes a picture held in memory; `path` names it in errors.
    package static func decode(_ bytes: [UInt8], path: String) throws(ImageError) -> DecodedImage {
        guard !bytes.isEmpty else {
            throw ImageError(.empty, path: path, reason: "the file is empty; give a PNG or JPEG picture")
        }
        switch try format(of: bytes, path: path) {
        case .png: return try decodePNG(bytes, path: path)
        case .jpeg: return try decodeJPEG(bytes, path: path)
        }
    }

    /// The format the first bytes announce.
    package static func format(of bytes: [UInt8], path: String) throws(ImageError) -> Format {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        if bytes.starts(with: png) { return .png }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        let known: [(prefix: [UInt8], name: String)] = [
            (Array("GIF8".utf8), "a GIF"), (Array("BM".utf8), "a BMP"), (Array("RIFF".utf8), "a RIFF (WebP?)"),
            ([0x49, 0x49, 0x2A, 0x00], "a TIFF"), ([0x4D, 0x4D, 0x00, 0x2A], "a TIFF"),
        ]
        let what = known.first { bytes.starts(with: $0.prefix) }.map { "\($0.name) file" } ?? "not a picture tilt reads"
        throw ImageError(
            .unknownFormat, path: path,
            reason: "\(what) (its first bytes are neither PNG's nor JPEG's); convert it to PNG or JPEG")
    }

    /// The whole file, or an error saying why it cannot be read.
    package static func readFile(_ path: String) throws(ImageError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw unreadable(path, errno) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw unreadable(path, errno) }
        guard (info.st_mode & S_IFMT) != S_IFDIR else { throw unreadable(path, EISDIR) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(max(0, Int(info.st_size)))
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw unreadable(path, errno)
            }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
        }
        return bytes
    }

    private static func unreadable(_ path: String, _ code: Int32) -> ImageError {
        let text = String(cString: strerror(code))
        let advice =
            switch code {
            case ENOENT: "check the path"
            case EISDIR: "give a picture file, not a folder"
            case EACCES, EPERM: "make it readable"
            default: "check the file"
            }
        return ImageError(.unreadable, path: path, reason: "\(text); \(advice)")
    }

    private static func sizeProblem(width: Int, height: Int, path: String, format: String) -> ImageError? {
        guard width > 0, height > 0 else {
            return damaged(path, format, "the header gives a \(width)x\(height) picture")
        }
        guard width <= maxPixels, height <= maxPixels, width * height <= maxPixels else {
            return ImageError(
                .tooLarge, path: path,
                reason: "the picture is \(width)x\(height), over the \(maxPixels / 1_048_576) megapixels tilt decodes; "
                    + "scale it down first")
        }
        return nil
    }

    private static func decodePNG(_ bytes: [UInt8], path: String) throws(ImageError) -> DecodedImage {
        // libpng reads from the buffer in both calls, so both run while it is pinned.
        let result: Result<DecodedImage, ImageError> = bytes.withUnsafeBytes { raw in
            var image = png_image()
            image.version = tilt_png_image_version
            defer { png_image_free(&image) }
            guard png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count) != 0 else {
                return .failure(damaged(path, "PNG", message(image)))
            }
            let width = Int(image.width)
            let height = Int(image.height)
            if let error = sizeProblem(width: width, height: height, path: path, format: "PNG") {
                return .failure(error)
            }
            image.flags |= tilt_png_image_flag_16bit_srgb
            let pixels: [UInt8]?
            if image.format & tilt_png_format_flag_linear != 0 {
                pixels = readDeepPNG(&image, count: width * height * 4)
            } else {
                image.format = tilt_png_format_rgba
                var bytes = [UInt8](repeating: 0, count: width * height * 4)
                let ok = bytes.withUnsafeMutableBytes { png_image_finish_read(&image, nil, $0.baseAddress, 0, nil) }
                pixels = ok != 0 ? bytes : nil
            }
            guard let pixels else { return .failure(damaged(path, "PNG", message(image))) }
            return .success(DecodedImage(width: width, height: height, pixels: pixels))
        }
        switch result {
        case .success(let image): return image
        case .failure(let error): throw error
        }
    }

    /// A 16-bit file, read as 16-bit linear premultiplied RGBA and encoded to sRGB bytes here: libpng's own
    /// reduction to 8 bits goes through 8-bit linear values, which loses up to 6 levels in the shadows.
    private static func readDeepPNG(_ image: inout png_image, count: Int) -> [UInt8]? {
        image.format = tilt_png_format_rgba | tilt_png_format_flag_linear
        var deep = [UInt16](repeating: 0, count: count)
        let ok = deep.withUnsafeMutableBytes { png_image_finish_read(&image, nil, $0.baseAddress, 0, nil) }
        guard ok != 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: count)
        for i in stride(from: 0, to: count, by: 4) {
            let a = Float(deep[i + 3]) / 65535
            bytes[i + 3] = UInt8((a * 255).rounded())
            guard a > 0 else { continue }
            for c in 0..<3 { bytes[i + c] = SRGBTransfer.encode(Float(deep[i + c]) / 65535 / a) }
        }
        return bytes
    }

    private static func decodeJPEG(_ bytes: [UInt8], path: String) throws(ImageError) -> DecodedImage {
        guard let handle = tjInitDecompress() else {
            throw ImageError(.damaged, path: path, reason: "libjpeg-turbo could not start a decoder")
        }
        defer { tjDestroy(handle) }
        var width: Int32 = 0
        var height: Int32 = 0
        var subsampling: Int32 = 0
        var colorspace: Int32 = 0
        let header = bytes.withUnsafeBufferPointer {
            tjDecompressHeader3(handle, $0.baseAddress, UInt($0.count), &width, &height, &subsampling, &colorspace)
        }
        guard header == 0 else { throw damaged(path, "JPEG", String(cString: tjGetErrorStr2(handle))) }
        if let error = sizeProblem(width: Int(width), height: Int(height), path: path, format: "JPEG") { throw error }
        var pixels = [UInt8](repeating: 0, count: Int(width) * Int(height) * 4)
        let flags = tilt_tj_flag_accurate_dct | tilt_tj_flag_stop_on_warning
        let status = bytes.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer {
                tjDecompress2(
                    handle, source.baseAddress, UInt(source.count), $0.baseAddress, width, 0, height,
                    Int32(TJPF_RGBA.rawValue), flags)
            }
        }
        // A warning (a file cut short decodes with grey rows) is a failure too: the picture would be wrong.
        guard status == 0 else { throw damaged(path, "JPEG", String(cString: tjGetErrorStr2(handle))) }
        return DecodedImage(width: Int(width), height: Int(height), pixels: pixels)
    }

    private static func damaged(_ path: String, _ format: String, _ detail: String) -> ImageError {
        ImageError(
            .damaged, path: path,
            reason: "the \(format) data is cut short or damaged (\(detail)); export the picture again")
    }

    private static func message(_ image: png_image) -> String {
        var m = image.message
        return withUnsafeBytes(of: &m) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
    }
}
