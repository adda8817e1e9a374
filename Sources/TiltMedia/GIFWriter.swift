import TiltCore

/// An animated GIF89a encoder, in tilt because GStreamer's base and good plugins have none.
///
/// Every frame shares one fixed palette of 252 colours (6 levels of red × 7 of green × 6 of blue) and is dithered
/// onto it with a 4×4 ordered (Bayer) matrix: no per-frame palette to compute, no flicker between frames, and
/// gradients stay smooth at the price of a fine, stable pattern. Alpha is dropped, as the video encoders drop it.
/// Each frame lasts `1 / fps` rounded to GIF's hundredths of a second, with the rounding carried so the whole
/// animation keeps its length (browsers show delays under 2/100 s as 1/10 s, so keep `fps` at 50 or less).
/// The animation loops forever (the NETSCAPE2.0 extension).
final class GIFWriter {
    private let output: AtomicFileOutput
    private let width: Int
    private let height: Int
    private let fps: Double
    private var frames = 0
    private var encoder = LZWEncoder()
    /// `levels[channel][threshold][value]`: the palette level (times the channel's index weight) of `value` under
    /// Bayer threshold `threshold`.
    private let levels: [[[UInt8]]]

    /// Levels of red, green and blue in the palette.
    static let paletteLevels = (red: 6, green: 7, blue: 6)

    /// The 4×4 Bayer matrix, thresholds 0–15.
    private static let bayer: [Int] = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5]

    /// Writes the header, the palette and the looping extension.
    init(output: AtomicFileOutput, width: Int, height: Int, fps: Double) throws(OutputFileError) {
        precondition(width > 0 && height > 0 && width <= 65535 && height <= 65535, "GIF sizes are 1 to 65535")
        self.output = output
        self.width = width
        self.height = height
        self.fps = fps
        let (r, g, b) = Self.paletteLevels
        let weights = [g * b, b, 1]
        levels = [r, g, b].enumerated().map { channel, count in
            (0..<16).map { t in
                let threshold = (Double(t) + 0.5) / 16
                return (0..<256).map { v in
                    let level = min(count - 1, Int(Double(v) * Double(count - 1) / 255 + threshold))
                    return UInt8(level * weights[channel])
                }
            }
        }
        var head: [UInt8] = Array("GIF89a".utf8)
        head += Self.le16(width) + Self.le16(height)
        head += [0xF7, 0, 0]  // a global table of 256 entries, 8 bits a channel; background 0; square pixels
        for i in 0..<256 {
            let index = min(i, r * g * b - 1)
            let (ri, gi, bi) = (index / (g * b), index / b % g, index % b)
            head += [ri, gi, bi].enumerated().map { channel, level in
                let count = [r, g, b][channel]
                return UInt8((level * 255 + (count - 1) / 2) / (count - 1))
            }
        }
        head += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1, 0, 0, 0]
        try output.write(head)
    }

    /// The palette index of each pixel of a straight-alpha RGBA8 frame, dithered.
    func indices(rgba: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: width * height)
        let (red, green, blue) = (levels[0], levels[1], levels[2])
        rgba.withUnsafeBufferPointer { pixels in
            out.withUnsafeMutableBufferPointer { indices in
                for y in 0..<height {
                    let row = (y & 3) * 4
                    for x in 0..<width {
                        let t = Self.bayer[row + (x & 3)]
                        let p = (y * width + x) * 4
                        indices[y * width + x] =
                            red[t][Int(pixels[p])] + green[t][Int(pixels[p + 1])] + blue[t][Int(pixels[p + 2])]
                    }
                }
            }
        }
        return out
    }

    /// Appends one frame (straight-alpha RGBA8, top row first).
    func append(rgba: [UInt8]) throws(OutputFileError) {
        let hundredths = { (i: Int) in Int((Double(i) * 100 / self.fps).rounded()) }
        let delay = min(65535, max(1, hundredths(frames + 1) - hundredths(frames)))
        var block: [UInt8] = [0x21, 0xF9, 4, 0x04] + Self.le16(delay) + [0, 0]  // keep the frame; no transparency
        block += [0x2C, 0, 0, 0, 0] + Self.le16(width) + Self.le16(height) + [0]
        block.append(8)
        let data = encoder.encode(indices(rgba: rgba))
        var start = 0
        while start < data.count {
            let end = min(data.count, start + 255)
            block.append(UInt8(end - start))
            block += data[start..<end]
            start = end
        }
        block.append(0)
        try output.write(block)
        frames += 1
    }

    /// Writes the trailer; the caller commits the file.
    func finish() throws(OutputFileError) {
        try output.write([0x3B])
    }

    private static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
}

/// GIF's variable-length LZW for 8-bit codes: a clear code first, codes of 9 to 12 bits packed from the lowest bit,
/// a clear code whenever the table's 4096 entries are used up, the end code last.
struct LZWEncoder {
    private static let clear = 256
    private static let end = 257
    /// `table[prefix << 8 | byte]`: the code of that string, 0 for none yet.
    private var table = [UInt16](repeating: 0, count: 4096 * 256)
    private var used: [Int] = []

    /// The LZW data of `indices`, before it is cut into sub-blocks.
    mutating func encode(_ indices: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(indices.count / 2)
        var bits = 0
        var pending = 0
        var size = 9
        var next = Self.end + 1
        func emit(_ code: Int) {
            pending |= code << bits
            bits += size
            while bits >= 8 {
                out.append(UInt8(pending & 0xFF))
                pending >>= 8
                bits -= 8
            }
        }
        for key in used { table[key] = 0 }
        used.removeAll(keepingCapacity: true)
        emit(Self.clear)
        guard var prefix = indices.first.map(Int.init) else {
            emit(Self.end)
            if bits > 0 { out.append(UInt8(pending & 0xFF)) }
            return out
        }
        for index in indices.dropFirst() {
            let key = prefix << 8 | Int(index)
            let known = table[key]
            if known != 0 {
                prefix = Int(known)
                continue
            }
            emit(prefix)
            table[key] = UInt16(next)
            used.append(key)
            if next >= 1 << size { size += 1 }
            next += 1
            if next == 4096 {
                emit(Self.clear)
                for key in used { table[key] = 0 }
                used.removeAll(keepingCapacity: true)
                size = 9
                next = Self.end + 1
            }
            prefix = Int(index)
        }
        emit(prefix)
        emit(Self.end)
        if bits > 0 { out.append(UInt8(pending & 0xFF)) }
        return out
    }
}
