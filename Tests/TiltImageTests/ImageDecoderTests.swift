import Foundation
import Testing
import TiltCore
import TiltImage
import TiltTestKit

/// PNG (libpng) and JPEG (libjpeg-turbo) decoding of pictures made here, and every way a file can be bad.
struct ImageDecoderTests {
    static let picture = TestPictures.pattern(width: 23, height: 17, alpha: true)
    static let opaque = TestPictures.pattern(width: 23, height: 17)

    @Test func rgbaPNGDecodesExactlyWithStraightAlphaTopRowFirst() throws {
        let path = try TestPictures.file(try TestPictures.png(Self.picture), name: "a.png")
        let image = try ImageDecoder.load(path: path)
        #expect(image == Self.picture)
        #expect(image.pixel(x: 0, y: 0).w == 0)
        #expect(image.pixel(x: 22, y: 16) == SIMD4(255, 255, 96, 255))
    }

    @Test func greyPaletteAndRGBPNGsDecodeToRGBA() throws {
        let grey = try ImageDecoder.decode(try TestPictures.png(Self.opaque, kind: .gray), path: "grey.png")
        #expect(grey.pixel(x: 22, y: 3) == SIMD4(255, 255, 255, 255))
        #expect(grey.pixel(x: 0, y: 3) == SIMD4(0, 0, 0, 255))
        let rgb = try ImageDecoder.decode(try TestPictures.png(Self.opaque, kind: .rgb), path: "rgb.png")
        #expect(rgb == Self.opaque)
        let small = TestPictures.pattern(width: 8, height: 8, alpha: true)
        let palette = try ImageDecoder.decode(try TestPictures.png(small, kind: .palette), path: "palette.png")
        #expect(palette == small)
    }

    @Test func sixteenBitLinearPNGDecodesToSRGBBytes() throws {
        let image = try ImageDecoder.decode(try TestPictures.png(Self.opaque, kind: .linear16), path: "deep.png")
        let diff = zip(image.pixels, Self.opaque.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 99
        #expect(diff <= 1, "16-bit linear came back off by \(diff)")
    }

    @Test func interlacedPNGDecodes() throws {
        let path = TestPaths.temporaryDirectory("pic").appendingPathComponent("adam7.png").path
        try TestPictures.interlacedPNG(Self.picture, to: path)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(bytes[28] == 1, "the fixture is not interlaced")
        #expect(try ImageDecoder.load(path: path) == Self.picture)
    }

    @Test func jpegDecodesCloseToTheOriginalAndOpaque() throws {
        let path = try TestPictures.file(try TestPictures.jpeg(Self.picture), name: "a.jpg")
        let image = try ImageDecoder.load(path: path)
        #expect(image.width == 23 && image.height == 17)
        var total = 0
        for i in stride(from: 0, to: image.pixels.count, by: 4) {
            #expect(image.pixels[i + 3] == 255)
            for c in 0..<3 { total += abs(Int(image.pixels[i + c]) - Int(Self.picture.pixels[i + c])) }
        }
        let mean = Double(total) / Double(23 * 17 * 3)
        #expect(mean < 4, "JPEG mean error \(mean)")
        let grey = try ImageDecoder.decode(try TestPictures.jpeg(Self.opaque, gray: true), path: "g.jpg")
        #expect(grey.pixel(x: 3, y: 3).x == grey.pixel(x: 3, y: 3).y)
    }

    @Test func theFormatComesFromTheBytesNotTheName() throws {
        let path = try TestPictures.file(try TestPictures.png(Self.picture), name: "really-a-png.jpg")
        #expect(try ImageDecoder.load(path: path) == Self.picture)
    }

    @Test func truncatedFilesAreErrorsNamingTheFile() throws {
        let png = try TestPictures.png(TestPictures.pattern(width: 64, height: 64))
        let jpeg = try TestPictures.jpeg(TestPictures.pattern(width: 64, height: 64))
        for (bytes, name) in [(png, "cut.png"), (jpeg, "cut.jpg")] {
            for keep in [bytes.count / 2, 40, 9] {
                let error = try #require(throws: ImageError.self) {
                    try ImageDecoder.decode(Array(bytes.prefix(keep)), path: name)
                }
                #expect(error.kind == .damaged, "\(name) cut to \(keep): \(error)")
                #expect(error.description.contains(name))
                #expect(error.description.contains("cut short or damaged"))
            }
        }
    }

    @Test func corruptDataIsAnError() throws {
        var png = try TestPictures.png(TestPictures.pattern(width: 64, height: 64))
        for i in (png.count / 2)..<(png.count / 2 + 16) { png[i] ^= 0x5A }
        #expect(throws: ImageError.self) { try ImageDecoder.decode(png, path: "bad.png") }
        var jpeg = try TestPictures.jpeg(TestPictures.pattern(width: 64, height: 64))
        for i in 2..<40 { jpeg[i] = 0xFF }
        #expect(throws: ImageError.self) { try ImageDecoder.decode(jpeg, path: "bad.jpg") }
    }

    @Test func otherFilesSayWhatTheyAre() throws {
        let empty = try #require(throws: ImageError.self) { try ImageDecoder.decode([], path: "e.png") }
        #expect(empty.kind == .empty)
        let gif = try #require(throws: ImageError.self) { try ImageDecoder.decode(Array("GIF89a....".utf8), path: "g") }
        #expect(gif.kind == .unknownFormat)
        #expect(gif.description.contains("a GIF file"))
        let text = try #require(throws: ImageError.self) { try ImageDecoder.decode(Array("hello".utf8), path: "t") }
        #expect(text.description.contains("convert it to PNG or JPEG"))
    }

    @Test func missingFilesAndFoldersAreUnreadable() throws {
        let missing = try #require(throws: ImageError.self) { try ImageDecoder.load(path: "/no/such/picture.png") }
        #expect(missing.kind == .unreadable)
        #expect(missing.description.contains("/no/such/picture.png"))
        #expect(missing.description.contains("No such file"))
        let folder = try #require(throws: ImageError.self) { try ImageDecoder.load(path: "/tmp") }
        #expect(folder.description.contains("not a folder"))
    }

    @Test func aHeaderClaimingTooManyPixelsIsRefusedBeforeAllocating() throws {
        let bytes = try TestPictures.pngHeaderClaiming(width: 100_000, height: 100_000)
        let error = try #require(throws: ImageError.self) { try ImageDecoder.decode(bytes, path: "huge.png") }
        #expect(error.kind == .tooLarge)
        #expect(error.description.contains("100000x100000"))
    }
}

/// Writing a PNG file: what is wrong with the path is a kind, not a crash.
struct PNGFileWriteTests {
    @Test("a folder's name (x/, ., ./) is refused as .namesFolder, and its words name it")
    func folderNames() {
        for path in ["x/", ".", "./"] {
            do {
                try PNGFile.writeFile([0x89], to: path)
                Issue.record("\(path) was written")
            } catch {
                #expect(error.kind == .output(.namesFolder), "\(path)")
                #expect(error.output == .namesFolder)
                #expect(error.description.hasPrefix("\(path) names a folder"), "\(error)")
            }
        }
    }
}
