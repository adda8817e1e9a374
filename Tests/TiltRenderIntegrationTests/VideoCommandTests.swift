import Foundation
import Testing
import TiltCore
import TiltImage
import TiltRender
import TiltRenderTestKit
import TiltTestKit

/// `tiltfx … --image VIDEO | --camera [DEVICE] | --source PIPELINE` through the built binary: moving content in a
/// sequence, and what a person is told when the camera, the file or the pipeline does not work.
@Suite(.serialized) struct VideoCommandTests {
    static let presets = GLTestEnvironment.presetsDirectory
    static let ball = TestPaths.fixture("ball-64x48.webm")

    /// `tiltfx render --frames 4 --fps 5` of the (not animated) `tilt-specular` preset at 32x32, driven by the first
    /// second of `turn-left-up.csv` (the device at rest), on the content of `extra`; the frames' pixels.
    static func sequence(_ extra: [String]) throws -> (result: TiltFXProcess, frames: [[UInt8]]) {
        let folder = TestPaths.temporaryDirectory("video").path
        let r = try TiltFXProcess.run(
            [
                "render", "--presets", presets, "--preset", "tilt-specular", "--size", "32x32", "--frames", "4",
                "--fps", "5", "--replay", TestPaths.fixture("turn-left-up.csv"), "--out", folder,
            ] + extra + (extra.isEmpty ? [] : ["--fit", "stretch"]))
        guard r.status == 0 else { return (r, []) }
        let frames = try (0..<4).map {
            try PNGFile.read(path: folder + "/" + FrameSequenceJob.fileName($0)).rgba
        }
        return (r, frames)
    }

    /// `tiltfx render` of one 32x32 frame with `extra`; the result and the output path.
    static func still(_ extra: [String]) throws -> (result: TiltFXProcess, out: String) {
        let out = TestPaths.temporaryDirectory("video").appendingPathComponent("out.png").path
        let r = try TiltFXProcess.run(
            ["render", "--presets", presets, "--preset", "tilt-specular", "--size", "32x32", "--out", out] + extra)
        return (r, out)
    }

    @Test func aVideoMovesInASequenceWhereAStillPictureDoesNot() throws {
        let video = try Self.sequence(["--image", Self.ball])
        #expect(video.result.status == 0, "stderr: \(video.result.stderr)")
        for (a, b) in zip(video.frames, video.frames.dropFirst()) {
            #expect(ImageDifference(a, b).meanAbsolute > 0.5, "each frame shows the video 0.2 s later")
        }
        let again = try Self.sequence(["--image", Self.ball])
        #expect(again.frames == video.frames, "frame i shows the video at i/fps, on every run")
        let path = try TestPictures.file(
            try TestPictures.png(TestPictures.pattern(width: 64, height: 48)), name: "still.png")
        let still = try Self.sequence(["--image", path])
        #expect(still.result.status == 0, "stderr: \(still.result.stderr)")
        #expect(Set(still.frames).count == 1, "a still picture at rest gives the same frame")
    }

    @Test func aPipelineIsContent() throws {
        let r = try Self.sequence(["--source", "videotestsrc pattern=smpte ! video/x-raw,width=40,height=30"])
        #expect(r.result.status == 0, "stderr: \(r.result.stderr)")
        #expect(r.frames.count == 4)
        let plain = try Self.sequence([])
        try #require(plain.frames.count == 4, "stderr: \(plain.result.stderr)")
        #expect(ImageDifference(r.frames[0], plain.frames[0]).meanAbsolute > 5, "the colour bars replace the plate")
    }

    @Test(arguments: ["/dev/video-none", "/dev/null", "file"])
    func noCameraExitsOneSayingWhatToDo(device: String) throws {
        let path =
            device == "file" ? try TestPictures.file(Array("not a camera".utf8), name: "video0") : device
        let (r, out) = try Self.still(["--camera", path])
        #expect(r.status == 1, "stderr: \(r.stderr)")
        #expect(r.stderr.hasPrefix("error: no camera at \(path): "), "stderr: \(r.stderr)")
        #expect(r.stderr.hasSuffix("; plug one in, or name another with --camera DEVICE\n"), "stderr: \(r.stderr)")
        #expect(r.stderr.components(separatedBy: "\n").count == 2, "one line: \(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        if device == "/dev/video-none" {
            #expect(r.stderr.contains("Cannot identify device '/dev/video-none': No such file or directory"))
        }
        if device == "file" { #expect(r.stderr.contains("This isn't a device")) }
    }

    @Test(.enabled(if: !FileManager.default.fileExists(atPath: "/dev/video0"), "a camera is plugged in here"))
    func theCameraWithoutADeviceIsVideo0() throws {
        let (r, _) = try Self.still(["--camera"])
        #expect(r.status == 1, "stderr: \(r.stderr)")
        #expect(r.stderr.hasPrefix("error: no camera at /dev/video0: "), "stderr: \(r.stderr)")
    }

    @Test func aHeadlessRunWithoutTheCameraExitsOne() throws {
        let socket = TestPaths.temporaryDirectory("video").appendingPathComponent("none.sock").path
        let r = try TiltFXProcess.run([
            "run", "--headless", "--presets", Self.presets, "--preset", "tilt-specular", "--size", "32x32",
            "--seconds", "0.3", "--socket", socket, "--camera", "/dev/video-none",
        ])
        #expect(r.status == 1)
        #expect(r.stderr.contains("error: no camera at /dev/video-none: "), "stderr: \(r.stderr)")
    }

    @Test(arguments: [("text", "nor a video GStreamer knows"), ("cut", "the video does not decode")])
    func aFileThatIsNotAVideoExitsOne(kind: String, expected: String) throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Self.ball))
        let path =
            kind == "text"
            ? try TestPictures.file(Array("just text\n".utf8), name: "clip.webm")
            : try TestPictures.file(Array(bytes.prefix(200)), name: "cut.webm")
        let (r, out) = try Self.still(["--image", path])
        #expect(r.status == 1, "stderr: \(r.stderr)")
        #expect(r.stderr.hasPrefix("error: cannot use image \(path): "), "stderr: \(r.stderr)")
        #expect(r.stderr.contains(expected), "stderr: \(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func anUnknownElementIsNamed() throws {
        let (r, out) = try Self.still(["--source", "nosuchelement"])
        #expect(r.status == 1, "stderr: \(r.stderr)")
        #expect(
            r.stderr.hasPrefix("error: cannot build the pipeline 'nosuchelement': no element \"nosuchelement\"; "),
            "stderr: \(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func onePictureAtATime() throws {
        let (r, _) = try Self.still(["--image", Self.ball, "--source", "videotestsrc"])
        #expect(r.status == 64)
        #expect(
            r.stderr.contains(
                "--image and --source each give the picture; choose one of --image, --camera and --source"),
            "stderr: \(r.stderr)")
        let both = try Self.still(["--camera", "--source", "videotestsrc"])
        #expect(both.result.status == 64)
    }

    @Test func aLiveSourceDrawsEachNewFrameAndIsClosedWhileStill() throws {
        let socket = TestPaths.temporaryDirectory("video").appendingPathComponent("none.sock").path
        func run(_ policy: String, _ content: [String]) throws -> TiltFXProcess {
            try TiltFXProcess.run(
                [
                    "run", "--headless", "--presets", Self.presets, "--preset", "tilt-specular", "--size", "32x32",
                    "--seconds", "1", "--fps", "60", "--stats", "--socket", socket, "--power-policy", policy,
                ] + content)
        }
        let pipeline = "videotestsrc is-live=true ! video/x-raw,framerate=20/1,width=32,height=24"
        let live = try run("full", ["--source", pipeline])
        #expect(live.status == 0, "stderr: \(live.stderr)")
        let drawn = try #require(Self.drawn(live.stdout))
        #expect(drawn >= 5, "new frames are drawn though nothing else changes: \(live.stdout)")
        let path = try TestPictures.file(
            try TestPictures.png(TestPictures.pattern(width: 32, height: 24)), name: "still.png")
        let still = try run("full", ["--image", path])
        #expect(try #require(Self.drawn(still.stdout)) == 1, "a still picture is drawn once: \(still.stdout)")
        let gated = try run("still", ["--source", pipeline])
        #expect(gated.status == 0, "stderr: \(gated.stderr)")
        #expect(gated.stderr.contains("picture: pipeline '\(pipeline)' closed while still"), "\(gated.stderr)")
    }

    @Test(arguments: [
        ("identity error-after=10", "Failed after iterations as requested"),
        ("identity", "it ended (end of stream)"),
    ])
    func aLiveSourceThatStopsKeepsItsLastPictureAndIsOpenedAgain(ending: String, reason: String) throws {
        let socket = TestPaths.temporaryDirectory("video").appendingPathComponent("none.sock").path
        let count = ending == "identity" ? " num-buffers=10" : ""
        let pipeline = "videotestsrc is-live=true\(count) ! video/x-raw,framerate=20/1,width=32,height=24 ! \(ending)"
        let r = try TiltFXProcess.run([
            "run", "--headless", "--presets", Self.presets, "--preset", "tilt-specular", "--size", "32x32",
            "--seconds", "3", "--fps", "60", "--stats", "--socket", socket, "--source", pipeline,
        ])
        #expect(r.status == 0, "a source that stops does not end the run: \(r.stderr)")
        #expect(
            r.stderr.contains(
                "warning tiltfx: [TiltRender] pipeline '\(pipeline)' stopped: \(reason); showing its last picture and "
                    + "trying to open it again every 1 to 10 s\n"),
            "\(r.stderr)")
        #expect(r.stderr.contains("pipeline '\(pipeline)' is back after 1"), "\(r.stderr)")
        #expect(!r.stderr.contains("error:"), "\(r.stderr)")
        // 10 frames, a second on the last one, then 10 more: more new frames than one opening gives.
        let drawn = try #require(Self.drawn(r.stdout))
        #expect(drawn > 11, "\(r.stdout)")
    }

    @Test(.timeLimit(.minutes(1)))
    func aSourceThatCannotOpenIsTriedAgainUntilItIsBack() throws {
        let dir = TestPaths.temporaryDirectory("video")
        let png = try TestPictures.png(TestPictures.pattern(width: 32, height: 24))
        let path = try TestPictures.file(png, name: "frame.png")
        // Ten frames of the picture, then the end; opened again, it fails while the file is gone.
        let pipeline = "filesrc location=\(path) ! pngdec ! imagefreeze num-buffers=10 ! video/x-raw,framerate=20/1"
        let run = try RunningTiltFX([
            "run", "--headless", "--stats", "--presets", Self.presets, "--preset", "tilt-specular", "--size", "32x32",
            "--seconds", "8", "--socket", dir.appendingPathComponent("none.sock").path, "--source", pipeline,
        ])
        try run.waitForLog("pipeline '\(pipeline)' stopped: it ended (end of stream); showing its last picture")
        try FileManager.default.removeItem(atPath: path)
        // Gone a while (the tries are a second, then two more, after the stop; how many fall in the gap is the
        // scheduler's business): what holds is that it comes back only once the file has, after as long as the
        // tries it took need, and that the stop is said once.
        let gone = ContinuousClock.now
        Thread.sleep(forTimeInterval: 1.8)
        #expect(run.process.isRunning, "\(run.log)")
        try Data(png).write(to: URL(fileURLWithPath: path))
        let goneFor = (ContinuousClock.now - gone).inSeconds
        try run.waitForLog("pipeline '\(pipeline)' is back after ")
        let log = run.log
        let untilBack = try #require(log.range(of: "is back after ")).lowerBound
        #expect(log[..<untilBack].components(separatedBy: " stopped: ").count == 2, "said once: \(log)")
        let back = log[untilBack...].dropFirst("is back after ".count)
        let away = try #require(Double(back.prefix { $0 != " " }), "\(log)")
        let tries = try #require(Int(back.drop(while: { $0 != "(" }).dropFirst().prefix { $0.isNumber }), "\(log)")
        #expect(away >= goneFor - 0.1, "not before the file came back (gone \(goneFor) s): \(log)")
        // Try n comes 1, 1+2, 1+2+4… seconds after the stop.
        #expect(tries >= 1 && away >= Double((1 << tries) - 1) - 0.1, "\(log)")
        _ = try run.finish()
        #expect(run.process.terminationStatus == 0, "\(run.log)")
    }

    @Test func aLiveSourceThatStopsEndsARenderKeepingTheFramesWritten() throws {
        let folder = TestPaths.temporaryDirectory("video").path
        let pipeline = "videotestsrc ! video/x-raw,framerate=100/1,width=32,height=24 ! identity error-after=5"
        let r = try TiltFXProcess.run([
            "render", "--presets", Self.presets, "--preset", "tilt-specular", "--size", "32x32", "--frames", "300",
            "--fps", "10", "--replay", TestPaths.fixture("turn-left-up.csv"), "--out", folder, "--source", pipeline,
        ])
        #expect(r.status == 1, "\(r.stderr)")
        let written = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".png") }
        #expect((1..<300).contains(written.count), "the frames before the stop are kept: \(written.count)")
        #expect(
            r.stderr.contains(
                "error: pipeline '\(pipeline)' stopped: Failed after iterations as requested at frame \(written.count); "
                    + "frames 0 to \(written.count - 1) are written in \(folder). A render does not wait for a live "
                    + "source to come back: run it again, or record it to a video file and give that with --image\n"),
            "\(r.stderr)")
    }

    @Test func aLiveSourceThatStopsEndsAVideoRenderWritingNoVideo() throws {
        let out = TestPaths.temporaryDirectory("video").appendingPathComponent("out.gif").path
        let pipeline = "videotestsrc ! video/x-raw,framerate=100/1,width=32,height=24 ! identity error-after=5"
        let r = try TiltFXProcess.run([
            "render", "--presets", Self.presets, "--preset", "tilt-specular", "--size", "32x32", "--frames", "300",
            "--fps", "10", "--replay", TestPaths.fixture("turn-left-up.csv"), "--out", out, "--source", pipeline,
        ])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(
            r.stderr.contains("error: pipeline '\(pipeline)' stopped: Failed after iterations as requested at frame "))
        #expect(r.stderr.contains("; the video \(out) is not written. A render does not wait"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func aPipelineEndingInASinkIsRefused() throws {
        let (r, out) = try Self.still(["--source", "videotestsrc ! appsink"])
        #expect(r.status == 1, "stderr: \(r.stderr)")
        #expect(
            r.stderr.hasPrefix(
                "error: cannot use the pipeline 'videotestsrc ! appsink': it ends in appsink, a sink, and tiltfx adds "
                    + "its own after it (videoconvert ! video/x-raw,format=RGBA ! appsink); drop the last element: "
                    + "--source 'videotestsrc'"),
            "stderr: \(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func benchMeasuresAPresetOnAVideo() throws {
        let r = try TiltFXProcess.run([
            "bench", "--presets", Self.presets, "--preset", "tilt-specular", "--size", "32x32", "--seconds", "0.5",
            "--image", Self.ball,
        ])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(r.stdout.contains("picture: \(Self.ball) (video, 64x48, played live, --fit contain)"), "\(r.stdout)")
        let line = try #require(r.stdout.split(separator: "\n").first { $0.contains(" fps") })
        let uploaded = try #require(line.range(of: #", (\d+) video frames uploaded\)"#, options: .regularExpression))
        let count = Int(line[uploaded].dropFirst(2).prefix { $0.isNumber }) ?? 0
        // 0.5 s of a 15 fps video, played live: at most 8 new frames, each uploaded once however many are drawn.
        #expect((1...9).contains(count), "\(line)")
    }

    /// The `drawn` count of the stats line.
    static func drawn(_ stdout: String) -> Int? {
        guard let line = stdout.split(separator: "\n").first(where: { $0.contains(#""class":"stats""#) }),
            let range = line.range(of: #""drawn":"#)
        else { return nil }
        return Int(line[range.upperBound...].prefix { $0.isNumber })
    }
}
