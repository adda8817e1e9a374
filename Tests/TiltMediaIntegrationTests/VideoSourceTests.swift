import Foundation
import Testing
import TiltCore
import TiltTestKit

@testable import TiltMedia

/// `Tests/Fixtures/ball-64x48.webm`: 30 frames at 15 fps, 64x48 (see Tests/Fixtures/README.md).
let ballVideo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/ball-64x48.webm").path

/// A file in a fresh temporary folder holding `bytes`.
func temporaryFile(_ bytes: [UInt8], name: String) throws -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tilt-media-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent(name).path
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
}

/// Real GStreamer pipelines: `videotestsrc` standing in for a camera, and a small WebM file.
@Suite(.serialized) struct VideoSourceTests {
    /// Polls `source` for up to `seconds` until `done` says so, sleeping `interval` between polls.
    static func poll(
        _ source: VideoSource, seconds: Double = 10, interval: Double = 0.005, until done: (VideoFrame) -> Bool
    ) throws -> VideoFrame? {
        let deadline = Deadline(seconds: seconds)
        while !deadline.hasPassed {
            if let frame = try source.latestFrame(), done(frame) { return frame }
            Thread.sleep(forTimeInterval: interval)
        }
        return nil
    }

    @Test func aTestSourceGivesRGBAFramesOfItsSize() throws {
        let source = VideoSource(.pipeline("videotestsrc ! video/x-raw,width=40,height=30,framerate=30/1"))
        try source.open()
        #expect(source.isOpen)
        let first = try #require(try source.latestFrame())
        #expect(first.width == 40 && first.height == 30)
        #expect(first.stride >= 160)
        let pixels = first.pixels
        #expect(pixels.count == 40 * 30 * 4)
        // The default pattern's top-left bar is white, opaque.
        #expect(Array(pixels[0..<4]) == [255, 255, 255, 255])
        source.close()
        #expect(!source.isOpen)
        #expect(try source.latestFrame() == nil)
    }

    @Test func aSlowReaderGetsTheNewestFrameAndSkipsTheRest() throws {
        let source = VideoSource(.pipeline("videotestsrc is-live=true ! video/x-raw,width=16,height=16,framerate=50/1"))
        try source.open()
        defer { source.close() }
        var times: [Double] = []
        // A slow reader: 200 ms at least between reads, ten frames' time at 50 fps. However late the pipeline's
        // threads run, what a read gets is the newest frame; the ones decoded since the last read are dropped,
        // so two frames read in a row are never neighbours (20 ms apart).
        for _ in 0..<10 where times.count < 4 {
            Thread.sleep(forTimeInterval: 0.2)
            if let frame = try source.latestFrame() { times.append(frame.time) }
        }
        #expect(times.count >= 3, "frames: \(times)")
        for (a, b) in zip(times, times.dropFirst()) {
            #expect(b > a, "times increase: \(times)")
            #expect(b - a > 0.03, "frames in between were dropped: \(times)")
        }
        #expect(try source.latestFrame() == nil, "nothing new right after a read")
    }

    @Test func aLiveSourceClosesAndReopens() throws {
        let source = VideoSource(.pipeline("videotestsrc is-live=true ! video/x-raw,width=8,height=8"))
        #expect(!source.isOpen)
        try source.open()
        #expect(source.isOpen)
        source.close()
        #expect(!source.isOpen)
        try source.open()
        #expect(source.isOpen)
        #expect(try source.latestFrame() != nil)
        source.close()
    }

    @Test func aVideoFileDecodesAndLoopsPastItsEnd() throws {
        let source = VideoSource(.file(ballVideo))
        try source.open()
        defer { source.close() }
        let first = try #require(try source.latestFrame())
        #expect(first.width == 64 && first.height == 48)
        // The file lasts 2 s; in 3.5 s of live play it must have started again.
        var last = first.time
        var wrapped = false
        _ = try Self.poll(source, seconds: 3.5) { frame in
            if frame.time < last { wrapped = true }
            last = frame.time
            return wrapped
        }
        #expect(wrapped, "the time went back to the start")
        #expect(source.loops >= 1)
    }

    @Test func aSteppedFileShowsTheFrameOfEachTimeAndLoops() throws {
        let source = VideoSource(.file(ballVideo), configuration: .init(pacing: .stepped))
        let atZero = try source.frame(at: 0)
        #expect(atZero.time < 0.01)
        let pixelsAtZero = atZero.pixels
        let atHalf = try source.frame(at: 0.5)
        #expect(abs(atHalf.time - 0.5) < 1.0 / 15 + 0.002, "time \(atHalf.time)")
        #expect(atHalf.pixels != pixelsAtZero, "the ball moved")
        // 2 s later: the second loop, frame for frame the same picture as at 0.5 s.
        let again = try source.frame(at: 2.5)
        #expect(source.loops == 1)
        #expect(abs(again.time - 2.5) < 1.0 / 15 + 0.002, "time \(again.time)")
        #expect(again.pixels == atHalf.pixels)
        source.close()
    }
}
