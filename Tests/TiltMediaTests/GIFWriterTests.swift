import Foundation
import Testing
import TiltTestKit

@testable import TiltMedia

/// ``GIFWriter`` through ``VideoEncoder``, read back by a GIF decoder written here from the GIF89a specification.
@Suite struct GIFWriterTests {
    /// A decoded GIF: its size, the delay of each frame (hundredths of a second), and each frame's RGB pixels.
    struct Decoded {
        var width = 0
        var height = 0
        var loops = false
        var delays: [Int] = []
        var frames: [[UInt8]] = []
    }

    /// Decodes `bytes` as GIF89a with one global palette (what GIFWriter writes).
    static func decode(_ bytes: [UInt8]) throws -> Decoded {
        var at = 0
        func take(_ n: Int) throws -> ArraySlice<UInt8> {
            guard at + n <= bytes.count else { throw TestError("the GIF ends early at byte \(at)") }
            defer { at += n }
            return bytes[at..<at + n]
        }
        func le16() throws -> Int { let b = try take(2); return Int(b[b.startIndex]) | Int(b[b.startIndex + 1]) << 8 }
        func subBlocks() throws -> [UInt8] {
            var data: [UInt8] = []
            while true {
                let n = Int(try take(1).first!)
                if n == 0 { return data }
                data += try take(n)
            }
        }
        guard Array(try take(6)) == Array("GIF89a".utf8) else { throw TestError("not a GIF89a") }
        var gif = Decoded()
        gif.width = try le16()
        gif.height = try le16()
        let flags = try take(3).first!
        guard flags & 0x80 != 0 else { throw TestError("no global palette") }
        let palette = Array(try take(3 << (Int(flags & 7) + 1)))
        while true {
            switch try take(1).first! {
            case 0x21:
                let label = try take(1).first!
                let data = try subBlocks()
                if label == 0xF9 { gif.delays.append(Int(data[1]) | Int(data[2]) << 8) }
                if label == 0xFF && data.starts(with: Array("NETSCAPE2.0".utf8)) { gif.loops = true }
            case 0x2C:
                _ = try take(4)
                let (w, h) = (try le16(), try le16())
                guard w == gif.width, h == gif.height, try take(1).first! & 0x80 == 0 else {
                    throw TestError("a frame of another size or with its own palette")
                }
                let minimum = Int(try take(1).first!)
                let indices = try lzwDecode(try subBlocks(), minimum: minimum, count: w * h)
                gif.frames.append(indices.flatMap { palette[Int($0) * 3..<Int($0) * 3 + 3] })
            case 0x3B:
                return gif
            case let other:
                throw TestError("unknown block 0x\(String(other, radix: 16)) at byte \(at - 1)")
            }
        }
    }

    /// GIF's LZW, decoded as the specification describes it (a table of strings, codes growing to 12 bits).
    static func lzwDecode(_ data: [UInt8], minimum: Int, count: Int) throws -> [UInt8] {
        let clear = 1 << minimum
        let end = clear + 1
        var table: [[UInt8]] = []
        var size = minimum + 1
        var previous: [UInt8]?
        var out: [UInt8] = []
        var bitPosition = 0
        func reset() {
            table = (0..<clear).map { [UInt8($0)] } + [[], []]
            size = minimum + 1
            previous = nil
        }
        reset()
        while bitPosition + size <= data.count * 8 {
            var code = 0
            for i in 0..<size where data[(bitPosition + i) / 8] & (1 << ((bitPosition + i) % 8)) != 0 {
                code |= 1 << i
            }
            bitPosition += size
            if code == clear {
                reset()
                continue
            }
            if code == end { break }
            let entry: [UInt8]
            if code < table.count {
                entry = table[code]
            } else if code == table.count, let previous {
                entry = previous + [previous[0]]
            } else {
                throw TestError("code \(code) past the table (\(table.count)) after \(out.count) pixels")
            }
            out += entry
            if let previous, table.count < 4096 { table.append(previous + [entry[0]]) }
            previous = entry
            if table.count == 1 << size && size < 12 { size += 1 }
        }
        guard out.count == count else { throw TestError("\(out.count) pixels decoded, expected \(count)") }
        return out
    }

    private func encode(_ frames: [[UInt8]], width: Int, height: Int, fps: Double) throws -> Decoded {
        let dir = TestPaths.temporaryDirectory("gif")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("clip.gif").path
        let encoder = try VideoEncoder(
            path: path, configuration: .init(width: width, height: height, fps: fps, container: .gif))
        for frame in frames { try encoder.append(rgba: frame) }
        try encoder.finish()
        return try Self.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    @Test("solid colours come back as the nearest mix of palette colours, the average within a few levels")
    func solidColours() throws {
        let colours = VideoEncoderTests.colours
        let gif = try encode(
            colours.map { VideoEncoderTests.solid($0, width: 40, height: 30) }, width: 40, height: 30, fps: 10)
        #expect(gif.width == 40 && gif.height == 30 && gif.loops)
        #expect(gif.frames.count == colours.count)
        #expect(gif.delays == Array(repeating: 10, count: colours.count))
        for (frame, colour) in zip(gif.frames, colours) {
            // Dithering mixes neighbouring palette colours; over a 4x4 tile the mix averages to the colour.
            for (channel, want) in [colour.0, colour.1, colour.2].enumerated() {
                let values = stride(from: channel, to: frame.count, by: 3).map { Int(frame[$0]) }
                let mean = Double(values.reduce(0, +)) / Double(values.count)
                #expect(abs(mean - Double(want)) <= 6, "channel \(channel) of \(colour): mean \(mean)")
            }
        }
    }

    @Test("a noisy frame larger than LZW's 4096-entry table survives the clear codes intact")
    func noiseRoundTrips() throws {
        var generator = SeededGenerator(seed: 7)
        let (width, height) = (257, 131)
        var frame = [UInt8](repeating: 255, count: width * height * 4)
        for i in 0..<width * height {
            // Exact palette colours, so dithering cannot change them.
            frame[i * 4] = [0, 51, 102, 153, 204, 255].randomElement(using: &generator)!
            frame[i * 4 + 1] = [0, 85, 170, 255].randomElement(using: &generator)!
            frame[i * 4 + 2] = [0, 255].randomElement(using: &generator)!
        }
        let gif = try encode([frame, frame], width: width, height: height, fps: 30)
        #expect(gif.frames.count == 2)
        var rgb: [UInt8] = []
        for i in 0..<width * height { rgb += frame[i * 4..<i * 4 + 3] }
        #expect(gif.frames[0] == rgb)
        #expect(gif.frames[1] == rgb)
    }

    @Test("delays carry their rounding: 30 frames at 30 fps last exactly one second")
    func delaysKeepTheLength() throws {
        let frames = Array(repeating: VideoEncoderTests.solid((9, 9, 9), width: 4, height: 4), count: 30)
        let gif = try encode(frames, width: 4, height: 4, fps: 30)
        #expect(gif.delays.reduce(0, +) == 100)
        #expect(Set(gif.delays) == [3, 4])
    }
}
