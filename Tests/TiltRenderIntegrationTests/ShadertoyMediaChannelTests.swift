import Foundation
import Logging
import Testing
import TiltCore
import TiltEffects
import TiltImage
import TiltMedia
import TiltRenderTestKit
import TiltTestKit

@testable import TiltGL
@testable import TiltRender

/// Shadertoy's video, webcam, music and microphone channels on llvmpipe, played through GStreamer by ``ChannelMedia``
/// from small generated media: the picture and the sound texture a shader reads at a given time.
@Suite(.serialized) struct ShadertoyMediaChannelTests {
    static let logger = Logger(label: "test.channels")

    /// An export whose Image pass reads `input` on `channel` with `code`.
    static func export(_ inputs: [[String: Any]], code: String) throws -> String {
        let doc: [String: Any] = [
            "ver": "0.1", "info": ["name": "media"],
            "renderpass": [
                [
                    "name": "Image", "type": "image", "code": code, "inputs": inputs,
                    "outputs": [["id": 37, "channel": 0]],
                ]
            ],
        ]
        return String(decoding: try JSONSerialization.data(withJSONObject: doc, options: [.sortedKeys]), as: UTF8.self)
    }

    static func load(_ json: String, in dir: URL) throws -> Preset {
        let file = dir.appendingPathComponent("media.json")
        try json.write(to: file, atomically: true, encoding: .utf8)
        return try ShadertoyExport.load(file: file.path)
    }

    /// A 16-bit mono WAV at 44.1 kHz of `samples` (−1…1).
    static func writeWAV(_ samples: [Float], to path: String) throws {
        var data = Data()
        func le<T: FixedWidthInteger>(_ v: T) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
        let bytes = UInt32(samples.count * 2)
        data.append(contentsOf: Array("RIFF".utf8))
        le(UInt32(36) + bytes)
        data.append(contentsOf: Array("WAVEfmt ".utf8))
        le(UInt32(16))
        le(UInt16(1))
        le(UInt16(1))
        le(UInt32(44100))
        le(UInt32(88200))
        le(UInt16(2))
        le(UInt16(16))
        data.append(contentsOf: Array("data".utf8))
        le(bytes)
        for s in samples { le(Int16(max(-1, min(1, s)) * 32767)) }
        try data.write(to: URL(fileURLWithPath: path))
    }

    /// The frequency at the centre of FFT bin `k` (1024 points at 44.1 kHz).
    static func binFrequency(_ k: Int) -> Double { Double(k) * 44100 / 1024 }

    @Test("a video channel shows the video's frame at each time, looped, with its time and size")
    func videoChannel() throws {
        _ = GLTestEnvironment.configured
        let dir = TestPaths.temporaryDirectory("tilt-media")
        let video = dir.appendingPathComponent("grey.webm").path
        // 16 frames at 8 fps (2 s): frame i is grey i × 16.
        let encoder = try VideoEncoder(
            path: video, configuration: .init(width: 32, height: 32, fps: 8, container: .webm, codec: .vp8))
        for i in 0..<16 {
            try encoder.append(
                rgba: (0..<32 * 32).flatMap { _ -> [UInt8] in [UInt8(i * 16), UInt8(i * 16), UInt8(i * 16), 255] })
        }
        try encoder.finish()
        let code = """
            void mainImage(out vec4 c, in vec2 p) {
                c = p.x < 1.0 ? vec4(texture(iChannel3, vec2(0.5)).rgb, 1.0)
                    : vec4(iChannelTime[3] / 8.0, iChannelResolution[3].x / 64.0, iChannelResolution[3].y / 64.0, 1.0);
            }

            """
        let preset = try Self.load(
            try Self.export([["id": 1, "channel": 3, "ctype": "video", "src": "/media/a/grey.webm"]], code: code),
            in: dir)
        let renderer = try OffscreenRenderer(preset: preset, width: 2, height: 1)
        #expect(renderer.effects.isAnimated, "a video channel draws every frame")
        let media = ChannelMedia(stepped: true, logger: Self.logger)
        defer { media.close() }
        // Times in order (a stepped video): frame 0, frame 4, frame 10, and frame 4 again a loop later.
        for (time, frame) in [(0.0, 0), (0.5, 4), (1.25, 10), (2.5, 4)] {
            try media.update(renderer.effects, time: time)
            let pixels = try renderer.render(FrameInputs(time: time, size: [2, 1]))
            #expect(abs(Int(pixels[0]) - frame * 16) <= 8, "at \(time) s: \(pixels[0]) for frame \(frame)")
            #expect(abs(Double(pixels[4]) - time / 8 * 255) <= 2, "iChannelTime at \(time) s: \(pixels[4])")
            #expect(Array(pixels[5...6]) == [128, 128], "iChannelResolution 32 × 32: \(pixels[5...6])")
        }
    }

    /// A shader showing, at pixel x, the spectrum (row 0) at bins 40 and 100, the waveform (row 1), and the channel's
    /// time / 4.
    static let soundCode = """
        void mainImage(out vec4 c, in vec2 p) {
            float v = p.x < 1.0 ? texture(iChannel1, vec2(40.5 / 512.0, 0.25)).x
                : p.x < 2.0 ? texture(iChannel1, vec2(100.5 / 512.0, 0.25)).x
                : p.x < 3.0 ? texture(iChannel1, vec2(200.5 / 512.0, 0.75)).x
                : iChannelTime[1] / 4.0;
            c = vec4(v, iChannelResolution[1].x / 512.0, iChannelResolution[1].y / 2.0, 1.0);
        }

        """

    @Test("a music channel's spectrum peaks in the tone's bin while it plays, is silent after, and loops")
    func musicChannel() throws {
        _ = GLTestEnvironment.configured
        let dir = TestPaths.temporaryDirectory("tilt-media")
        // 1 s of a tone at the centre of bin 40, then 1 s of silence.
        let f = Self.binFrequency(40)
        let tone = (0..<44100).map { Float(0.5 * sin(2 * Double.pi * f * Double($0) / 44100)) }
        try Self.writeWAV(tone + [Float](repeating: 0, count: 44100), to: dir.appendingPathComponent("tone.wav").path)
        let preset = try Self.load(
            try Self.export(
                [["id": 2, "channel": 1, "ctype": "music", "src": "/media/a/tone.wav"]], code: Self.soundCode),
            in: dir)
        let renderer = try OffscreenRenderer(preset: preset, width: 4, height: 1)
        let media = ChannelMedia(stepped: true, logger: Self.logger)
        defer { media.close() }
        for (time, playing) in [(0.5, true), (1.5, false), (2.5, true)] {
            try media.update(renderer.effects, time: time)
            let pixels = try renderer.render(FrameInputs(time: time, size: [4, 1]))
            let (peak, far) = (Int(pixels[0]), Int(pixels[4]))
            if playing {
                #expect(peak > 200 && far < 30, "at \(time) s the tone's bin \(peak), bin 100 \(far)")
            } else {
                #expect(peak == 0 && far == 0, "at \(time) s silence: \(peak), \(far)")
                #expect(abs(Int(pixels[8]) - 128) <= 1, "the waveform of silence is at its middle: \(pixels[8])")
            }
            // The time into the track (looped) and the 512 × 2 size.
            #expect(abs(Double(pixels[12]) - time.truncatingRemainder(dividingBy: 2) / 4 * 255) <= 2)
            #expect(Array(pixels[1...2]) == [255, 255], "iChannelResolution 512 × 2")
        }
    }

    @Test("a music file that is not found is silence, and the picture still draws")
    func missingMusicIsSilence() throws {
        _ = GLTestEnvironment.configured
        let dir = TestPaths.temporaryDirectory("tilt-media")
        let preset = try Self.load(
            try Self.export(
                [["id": 2, "channel": 1, "ctype": "music", "src": "/media/a/gone.mp3"]], code: Self.soundCode),
            in: dir)
        #expect(preset.notices.first?.contains("music file 'gone.mp3' not found; the channel hears silence") == true)
        let renderer = try OffscreenRenderer(preset: preset, width: 4, height: 1)
        let media = ChannelMedia(stepped: true, logger: Self.logger)
        try media.update(renderer.effects, time: 0.5)
        let pixels = try renderer.render(FrameInputs(time: 0.5, size: [4, 1]))
        #expect([pixels[0], pixels[4], pixels[8]] == [0, 0, 128], "silence: \(Array(pixels))")
    }

    /// A shader showing the webcam channel (`iChannel2`) at eight points across its upper half.
    /// A second output row (above) reads the channel near its bottom instead.
    static let webcamCode = """
        void mainImage(out vec4 c, in vec2 p) {
            c = vec4(texture(iChannel2, vec2(p.x / 8.0, p.y > 1.0 ? 0.125 : 0.625)).rgb, 1.0);
        }

        """

    /// An export whose Image pass shows its webcam channel (``webcamCode``).
    static func webcamExport() throws -> Preset {
        try load(
            try export([["id": 3, "channel": 2, "ctype": "webcam"]], code: webcamCode),
            in: TestPaths.temporaryDirectory("tilt-media"))
    }

    @Test("a webcam channel shows the --source pipeline, or a test pattern without one")
    func webcamChannel() throws {
        _ = GLTestEnvironment.configured
        let preset = try Self.webcamExport()
        let renderer = try OffscreenRenderer(preset: preset, width: 8, height: 1)

        // No camera: the colour bars, left to right, upright (the webcam is flipped like a video): the grey ramp of
        // the picture's lower quarter is near v = 0.
        let bars = ChannelMedia(logger: Self.logger)
        try bars.update(renderer.effects, time: 0)
        let tall = try OffscreenRenderer(preset: preset, width: 8, height: 2)
        try bars.update(tall.effects, time: 0)
        let ramp = try tall.render(FrameInputs(size: [8, 2]))
        for x in 0..<8 {
            let texel = Array(ramp[x * 4..<x * 4 + 3]).map(Int.init)
            let grey = texel[0] == texel[1] && texel[1] == texel[2]
            #expect(grey && abs(texel[0] - (32 * x + 16)) <= 1, "ramp at \(x): \(texel)")
        }
        let pattern = try renderer.render(FrameInputs(size: [8, 1]))
        let expected: [[UInt8]] = [
            [255, 255, 255], [255, 255, 0], [0, 255, 255], [0, 255, 0], [255, 0, 255], [255, 0, 0], [0, 0, 255],
            [0, 0, 0],
        ]
        #expect((0..<8).map { Array(pattern[$0 * 4..<$0 * 4 + 3]) } == expected)
        bars.close()

        // A pipeline in place of a camera.
        let source = ChannelMedia(webcam: .pipeline("videotestsrc pattern=blue"), logger: Self.logger)
        defer { source.close() }
        try source.update(renderer.effects, time: 0)
        let blue = try renderer.render(FrameInputs(size: [8, 1]))
        #expect((0..<8).allSatisfy { Array(blue[$0 * 4..<$0 * 4 + 3]) == [0, 0, 255] }, "\(Array(blue))")
    }

    @Test("a webcam pipeline that ends shows the test pattern and is opened again")
    func aWebcamThatStopsIsTriedAgain() throws {
        _ = GLTestEnvironment.configured
        let renderer = try OffscreenRenderer(preset: try Self.webcamExport(), width: 8, height: 1)
        // Three red frames, then the end of the stream: each opening plays them again.
        let media = ChannelMedia(
            webcam: .pipeline("videotestsrc num-buffers=3 pattern=red"),
            retry: PictureFeed.Retry(firstDelay: 0.05, longestDelay: 0.1), logger: Self.logger)
        defer { media.close() }
        var seen: [String] = []
        let deadline = Deadline(seconds: 30)
        while !deadline.hasPassed && seen != ["red", "pattern", "red"] {
            try media.update(renderer.effects, time: 0)
            let first = Array(try renderer.render(FrameInputs(size: [8, 1]))[0..<3])
            let what = first == [255, 0, 0] ? "red" : first == [255, 255, 255] ? "pattern" : "other"
            if seen.last != what { seen.append(what) }
            Thread.sleep(forTimeInterval: 0.01)
        }
        #expect(seen == ["red", "pattern", "red"], "what the channel showed, in turn")
    }

    @Test("every renderer is shown the channels, one that comes later (a reload, a new output) too")
    func everyRendererIsShown() throws {
        _ = GLTestEnvironment.configured
        let preset = try Self.webcamExport()
        let first = try OffscreenRenderer(preset: preset, width: 8, height: 1)
        let second = try OffscreenRenderer(preset: preset, width: 8, height: 1)
        let media = ChannelMedia(logger: Self.logger)
        defer { media.close() }
        try media.update([first.effects, second.effects], time: 0)
        // The test pattern is made once; a renderer made afterwards still gets it.
        let later = try OffscreenRenderer(preset: preset, width: 8, height: 1)
        try media.update([later.effects], time: 0.1)
        for renderer in [first, second, later] {
            let pixels = try renderer.render(FrameInputs(size: [8, 1]))
            #expect(
                Array(pixels[0..<3]) == [255, 255, 255] && Array(pixels[4..<7]) == [255, 255, 0], "\(Array(pixels))")
        }
    }

    @Test("a microphone channel hears its capture source; one that does not open is silence")
    func microphoneChannel() throws {
        _ = GLTestEnvironment.configured
        let dir = TestPaths.temporaryDirectory("tilt-media")
        let preset = try Self.load(
            try Self.export([["id": 4, "channel": 1, "ctype": "mic"]], code: Self.soundCode), in: dir)
        let renderer = try OffscreenRenderer(preset: preset, width: 4, height: 1)

        let tone = "audiotestsrc is-live=true wave=sine volume=0.5 freq=\(Self.binFrequency(40))"
        let media = ChannelMedia(microphonePipeline: tone, logger: Self.logger)
        defer { media.close() }
        // Live sound arrives at its own pace: look until the tone shows, for up to 20 s of a busy machine.
        let deadline = Deadline(seconds: 20)
        var pixels: [UInt8] = []
        repeat {
            try media.update(renderer.effects, time: 0)
            pixels = try renderer.render(FrameInputs(size: [4, 1]))
            if pixels[0] > 200 { break }
            Thread.sleep(forTimeInterval: 0.05)
        } while !deadline.hasPassed
        #expect(pixels[0] > 200 && pixels[4] < 30, "the tone's bin \(pixels[0]), bin 100 \(pixels[4])")

        let broken = ChannelMedia(microphonePipeline: "alsasrc device=hw:99,0", logger: Self.logger)
        try broken.update(renderer.effects, time: 0)
        let silent = try renderer.render(FrameInputs(size: [4, 1]))
        #expect([silent[0], silent[4], silent[8]] == [0, 0, 128], "silence: \(Array(silent))")
    }

    @Test("tiltfx render says what a webcam and a missing music file fall back to, and draws")
    func tiltfxSaysTheFallbacks() throws {
        let dir = TestPaths.temporaryDirectory("tilt-media")
        let json = try Self.export(
            [
                ["id": 3, "channel": 2, "ctype": "webcam"],
                ["id": 2, "channel": 1, "ctype": "music", "src": "/media/a/gone.mp3"],
            ], code: Self.webcamCode)
        let file = dir.appendingPathComponent("media.json")
        try json.write(to: file, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("o.png").path
        let plain = try TiltFXProcess.run(["render", "--preset", file.path, "--size", "8x1", "--out", out])
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(plain.stderr.contains("music file 'gone.mp3' not found; the channel hears silence"), "\(plain.stderr)")
        #expect(plain.stderr.contains("webcam channel: no --camera or --source given; it shows a test pattern"))
        let image = try PNGFile.read(path: out)
        #expect(Array(image.rgba[0..<4]) == [255, 255, 255, 255], "the test pattern's white bar")

        let piped = try TiltFXProcess.run([
            "render", "--preset", file.path, "--size", "8x1", "--out", dir.appendingPathComponent("p.png").path,
            "--source", "videotestsrc pattern=green",
        ])
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(!piped.stderr.contains("test pattern"), "\(piped.stderr)")
        let green = try PNGFile.read(path: dir.appendingPathComponent("p.png").path)
        #expect(
            Array(green.rgba[12..<16]) == [0, 255, 0, 255], "the pipeline feeds the webcam channel, not the picture")
    }
}
