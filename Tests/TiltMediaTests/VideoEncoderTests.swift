import Foundation
import Testing
import TiltCore
import TiltTestKit

@testable import TiltMedia

#if canImport(Glibc)
    import Glibc
#endif

/// ``VideoEncoder`` through real GStreamer encoders and muxers, read back with ``VideoProbe`` (GStreamer's decoders).
@Suite struct VideoEncoderTests {
    /// Solid colours, one a frame, that survive RGB → 4:2:0 YUV → RGB within a few levels.
    static let colours: [(UInt8, UInt8, UInt8)] = [
        (200, 40, 40), (40, 200, 40), (40, 40, 200), (128, 128, 128), (230, 230, 230), (20, 20, 20),
    ]

    /// A `width`×`height` frame of one colour.
    static func solid(_ colour: (UInt8, UInt8, UInt8), width: Int, height: Int) -> [UInt8] {
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * 4)
        for _ in 0..<width * height { pixels += [colour.0, colour.1, colour.2, 255] }
        return pixels
    }

    /// Encodes ``colours`` (one frame each) to `path` and decodes it back.
    static func roundTrip(
        _ path: String, container: VideoContainer, codec: VideoCodec? = nil, width: Int = 64, height: Int = 48
    ) throws -> [VideoProbe.Frame] {
        let configuration = VideoEncoder.Configuration(
            width: width, height: height, fps: 12, container: container, codec: codec)
        let encoder = try VideoEncoder(path: path, configuration: configuration)
        for colour in colours { try encoder.append(rgba: solid(colour, width: width, height: height)) }
        #expect(encoder.frames == colours.count)
        try encoder.finish()
        return try VideoProbe.frames(of: path)
    }

    /// Whether `frames` are ``colours`` in order, the centre pixel of each within `tolerance` per channel.
    static func expectColours(_ frames: [VideoProbe.Frame], tolerance: Int, _ what: String) {
        #expect(frames.count == colours.count, "\(what): \(frames.count) frames")
        for (frame, colour) in zip(frames, colours) {
            let (r, g, b, _) = frame.pixel(x: frame.width / 2, y: frame.height / 2)
            let off = max(abs(Int(r) - Int(colour.0)), abs(Int(g) - Int(colour.1)), abs(Int(b) - Int(colour.2)))
            #expect(off <= tolerance, "\(what) frame \(frame.index): \(r),\(g),\(b) for \(colour)")
        }
    }

    private func folder() -> String { TestPaths.temporaryDirectory("media").path }

    private func files(_ dir: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted()
    }

    @Test(
        "solid colours encoded to WebM (VP9, VP8) decode back near the same colour, size and time",
        arguments: [(VideoContainer.webm, VideoCodec.vp9), (.webm, .vp8)])
    func solidColoursRoundTrip(container: VideoContainer, codec: VideoCodec) throws {
        let dir = folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/colours." + container.rawValue
        let frames = try Self.roundTrip(path, container: container, codec: codec)
        Self.expectColours(frames, tolerance: 12, "\(codec.title) in .\(container.rawValue)")
        #expect(frames.allSatisfy { $0.width == 64 && $0.height == 48 })
        #expect(abs((frames.last?.time ?? -1) - 5.0 / 12) < 0.002, "\(frames.map(\.time))")
        #expect(files(dir) == ["colours." + container.rawValue], "no temporary file is left")
    }

    /// Whether H.264 can be both written (x264enc) and read back (avdec_h264 or openh264dec) here.
    static let h264RoundTrips =
        MediaFramework.hasElement("x264enc")
        && (MediaFramework.hasElement("avdec_h264") || MediaFramework.hasElement("openh264dec"))

    @Test(
        "H.264 in MP4 decodes back too",
        .enabled(
            if: h264RoundTrips,
            "needs x264enc (gstreamer1.0-plugins-ugly) and an H.264 decoder (gstreamer1.0-libav), not installed here"))
    func h264RoundTrip() throws {
        let dir = folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let frames = try Self.roundTrip(dir + "/colours.mp4", container: .mp4)
        Self.expectColours(frames, tolerance: 12, "H.264")
    }

    @Test("VP9 and VP8 take an odd size and keep it")
    func oddSizes() throws {
        let dir = folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for codec in [VideoCodec.vp9, .vp8] {
            let frames = try Self.roundTrip(
                dir + "/odd-\(codec.rawValue).webm", container: .webm, codec: codec, width: 161, height: 91)
            #expect(frames.count == Self.colours.count)
            #expect(frames.allSatisfy { $0.width == 161 && $0.height == 91 }, "\(codec)")
        }
    }

    @Test("H.264 refuses an odd size before any file is made, naming the even size and .webm")
    func h264RefusesOddSizes() throws {
        let configuration = VideoEncoder.Configuration(width: 161, height: 91, container: .mp4)
        #expect(throws: MediaError.self) { try VideoEncoder.check(configuration) }
        do {
            try VideoEncoder.check(configuration)
        } catch {
            #expect(error.description.contains("--size 162x92"), "\(error)")
            #expect(error.description.contains(".webm"), "\(error)")
        }
    }

    @Test(
        "without an H.264 encoder, .mp4 says which package to install and what else works",
        .enabled(if: !MediaFramework.hasElement("x264enc"), "x264enc is installed here"))
    func noH264Encoder() throws {
        let dir = folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let configuration = VideoEncoder.Configuration(width: 64, height: 48, container: .mp4)
        #expect(throws: MediaError.noEncoder(codec: .h264, container: .mp4, alternatives: [])) {
            try VideoEncoder(path: dir + "/x.mp4", configuration: configuration)
        }
        let text = MediaError.noEncoder(codec: .h264, container: .mp4, alternatives: []).description
        #expect(text.contains("apt install gstreamer1.0-plugins-ugly") && text.contains("write a .webm"), "\(text)")
        #expect(files(dir).isEmpty, "no file is made")
    }

    @Test("a codec the container cannot hold is refused")
    func codecOutsideItsContainer() {
        #expect(throws: MediaError.self) {
            try VideoEncoder.check(.init(width: 64, height: 48, container: .webm, codec: .h264))
        }
    }

    @Test("a cancelled or dropped encoder leaves the earlier file and no temporary; finishing replaces it")
    func cancelKeepsTheOldFile() throws {
        let dir = folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/clip.webm"
        try "old".write(toFile: path, atomically: false, encoding: .utf8)
        let configuration = VideoEncoder.Configuration(width: 32, height: 32, container: .webm)
        do {
            let dropped = try VideoEncoder(path: path, configuration: configuration)
            try dropped.append(rgba: Self.solid((1, 2, 3), width: 32, height: 32))
            #expect(files(dir).count == 2, "the temporary file is beside it: \(files(dir))")
        }
        let cancelled = try VideoEncoder(path: path, configuration: configuration)
        try cancelled.append(rgba: Self.solid((1, 2, 3), width: 32, height: 32))
        cancelled.cancel()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old")
        #expect(files(dir) == ["clip.webm"])
        let finished = try VideoEncoder(path: path, configuration: configuration)
        try finished.append(rgba: Self.solid((1, 2, 3), width: 32, height: 32))
        try finished.finish()
        #expect(try VideoProbe.scan(path) == VideoProbe.Summary(frames: 1, width: 32, height: 32))
        #expect(files(dir) == ["clip.webm"])
    }

    @Test("a missing folder is refused when the encoder is made, saying to create it")
    func missingFolder() throws {
        let path = folder() + "/no/such/clip.webm"
        do {
            _ = try VideoEncoder(
                path: path, configuration: .init(width: 32, height: 32, container: .webm))
            Issue.record("a missing folder was accepted")
        } catch {
            let folder = String(path.dropLast("/clip.webm".count))
            #expect(error == .output(OutputFileError(path: path, problem: .missingFolder(folder))))
            #expect(error.description.contains("create it (mkdir -p \(folder))"), "\(error)")
        }
    }

    @Test("a full disk while encoding (/dev/full) stops with diskFull, saying what was lost and what to do")
    func fullDisk() throws {
        let encoder = try VideoEncoder(
            path: "/dev/full", configuration: .init(width: 320, height: 240, container: .webm, codec: .vp8))
        var failure: MediaError?
        do {
            for i in 0..<60 {
                try encoder.append(rgba: Self.solid((UInt8(i * 4), 90, 200), width: 320, height: 240))
            }
            try encoder.finish()
        } catch {
            failure = error
        }
        guard case .diskFull(let path, _) = failure else {
            Issue.record("expected diskFull, got \(String(describing: failure))")
            return
        }
        #expect(path == "/dev/full")
        #expect(failure?.description.contains("the disk is full") == true)
        #expect(failure?.description.contains("free some space") == true)
    }

    @Test("a file that is not a video is a decoding error with GStreamer's reason, not a hang")
    func probeRefusesGarbage() throws {
        let dir = folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/not-a-video.webm"
        try Data(repeating: 7, count: 4096).write(to: URL(fileURLWithPath: path))
        #expect(throws: MediaError.self) { try VideoProbe.scan(path) }
        #expect(throws: MediaError.self) { try VideoProbe.scan(dir + "/missing.webm") }
    }
}
