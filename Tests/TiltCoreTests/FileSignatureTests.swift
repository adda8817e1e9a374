import Foundation
import Testing
import TiltCore
import TiltTestKit

/// ``FileSignature``: what a file's first bytes say it is, so errors name it instead of quoting its bytes.
struct FileSignatureTests {
    @Test("known formats by their magic numbers")
    func knownFormats() {
        #expect(FileSignature(bytes: [0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10]) == .known("a JPEG picture"))
        #expect(FileSignature(bytes: [0x1A, 0x45, 0xDF, 0xA3, 0x9F]) == .known("a WebM or Matroska video"))
        #expect(FileSignature(bytes: [0, 0, 0, 0x20] + Array("ftypisom".utf8)) == .known("an MP4 or QuickTime video"))
        #expect(FileSignature(bytes: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0]) == .known("a PNG picture"))
        #expect(FileSignature(bytes: Array("RIFF\0\0\0\0WEBPVP8 ".utf8)) == .known("a WebP picture"))
        #expect(FileSignature(bytes: [0x1F, 0x8B, 0x08, 0]) == .gzip)
    }

    @Test("text (UTF-8, a character cut at the end, an empty file) and binary data")
    func textAndBinary() {
        #expect(FileSignature(bytes: Array("t,gyr_x,gyr_y\n0.01,1,2\r\n".utf8)) == .text)
        #expect(FileSignature(bytes: Array("# 20 °C\n".utf8).dropLast(2)) == .text)
        #expect(FileSignature(bytes: [UInt8]()) == .text)
        #expect(FileSignature(bytes: [0x00, 0x01, 0x02, 0x41]) == .binary)
        #expect(FileSignature(bytes: [0x41, 0xC3, 0x28, 0x41]) == .binary, "invalid UTF-8")
    }

    @Test("a folder, a file, and a path that is not there")
    func paths() throws {
        let dir = TestPaths.temporaryDirectory("sig")
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(FileSignature(path: dir.path) == .folder)
        let jpeg = dir.appendingPathComponent("big.jpg").path
        _ = FileManager.default.createFile(
            atPath: jpeg, contents: Data([0xFF, 0xD8, 0xFF, 0xDB] + [UInt8](repeating: 7, count: 900)))
        #expect(FileSignature(path: jpeg) == .known("a JPEG picture"))
        #expect(FileSignature(path: dir.appendingPathComponent("none").path) == nil)
    }
}
