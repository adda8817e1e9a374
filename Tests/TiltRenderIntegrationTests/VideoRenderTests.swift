import Foundation
import Testing
import TiltCore
import TiltImage
import TiltMedia
import TiltRender
import TiltRenderTestKit
import TiltTestKit

#if canImport(Glibc)
    import Glibc
#endif

/// `tiltfx render --frames N --out NAME.webm|.mp4|.gif`: a frame sequence encoded as a video, read back by GStreamer.
@Suite(.serialized) struct VideoRenderTests {
    private static var presets: String { GLTestEnvironment.presetsDirectory }

    /// A log that tips the device 0.36 rad about x and 0.18 about y in its first half second, then holds it for
    /// a minute (200 Hz, written once).
    private static let tippingLog: String = {
        var motion = SyntheticMotion()
        motion.rate = 200
        motion.angularVelocity = { t in t >= 0.05 && t < 0.45 ? Vector3(0.9, 0.45, 0) : .zero }
        let path = TestPaths.temporaryDirectory("tiltfx").appendingPathComponent("tipping.csv").path
        try! CalibrationFixtures.writeLog(motion.generate(duration: 60).samples, to: path)
        return path
    }()

    /// `render --preset PRESET --size SIZE --frames N --fps 24 --replay (a tipping log) --out OUT`.
    private static func render(
        _ out: String, preset: String = "tilt-specular", size: String = "160x90", frames: Int = 12,
        extra: [String] = []
    ) -> [String] {
        [
            "render", "--presets", presets, "--preset", preset, "--size", size, "--frames", String(frames),
            "--fps", "24", "--replay", tippingLog, "--out", out,
        ] + extra
    }

    private func files(_ dir: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).sorted()
    }

    /// The mean absolute difference of two RGBA frames' colour channels, in levels.
    private func difference(_ a: [UInt8], _ b: [UInt8]) -> Double {
        var sum = 0
        for i in stride(from: 0, to: min(a.count, b.count), by: 4) {
            sum += abs(Int(a[i]) - Int(b[i])) + abs(Int(a[i + 1]) - Int(b[i + 1])) + abs(Int(a[i + 2]) - Int(b[i + 2]))
        }
        return Double(sum) / Double(a.count / 4 * 3)
    }

    @Test("a .webm decodes back to the frames asked, the size asked, and the pictures of the PNG sequence")
    func webmMatchesThePNGSequence() throws {
        let dir = TestPaths.temporaryDirectory("tiltfx")
        defer { try? FileManager.default.removeItem(at: dir) }
        let video = dir.appendingPathComponent("clip.webm").path
        let pngs = dir.appendingPathComponent("frames").path
        let r = try TiltFXProcess.run(Self.render(video), environment: ["TILTFX_PROGRESS_INTERVAL": "0"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("/12 frames ("), "progress counts frames: \(r.stderr)")
        #expect(try TiltFXProcess.run(Self.render(pngs)).status == 0)
        let frames = try VideoProbe.frames(of: video)
        #expect(frames.count == 12)
        #expect(frames.allSatisfy { $0.width == 160 && $0.height == 90 })
        #expect(files(dir) == ["clip.webm", "frames"], "no temporary file is left")
        let first = try PNGFile.read(path: pngs + "/frame-00000.png").rgba
        let last = try PNGFile.read(path: pngs + "/frame-00011.png").rgba
        try #require(frames.count == 12)
        let moved = difference(first, last)
        #expect(moved > 4, "the log moves the highlight between the first and last frame (\(moved))")
        // Each decoded frame is its PNG, give or take what 4:2:0 and VP9 lose; far closer than the other end.
        #expect(difference(frames[0].rgba, first) < moved / 2, "first: \(difference(frames[0].rgba, first))")
        #expect(difference(frames[11].rgba, last) < moved / 2, "last: \(difference(frames[11].rgba, last))")
    }

    @Test("an odd size is kept in WebM (VP8 too) and refused for H.264 in MP4 before anything is written")
    func oddSizes() throws {
        let dir = TestPaths.temporaryDirectory("tiltfx")
        defer { try? FileManager.default.removeItem(at: dir) }
        for codec in ["vp9", "vp8"] {
            let video = dir.appendingPathComponent("odd-\(codec).webm").path
            let r = try TiltFXProcess.run(Self.render(video, size: "161x91", frames: 3, extra: ["--codec", codec]))
            #expect(r.status == 0, "stderr: \(r.stderr)")
            #expect(try VideoProbe.scan(video) == VideoProbe.Summary(frames: 3, width: 161, height: 91))
        }
        let mp4 = dir.appendingPathComponent("odd.mp4").path
        let r = try TiltFXProcess.run(Self.render(mp4, size: "161x91", frames: 3))
        #expect(r.status == 1)
        #expect(r.stderr.contains("error: H.264 needs an even width and height"), "\(r.stderr)")
        #expect(r.stderr.contains("--size 162x92"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: mp4))
    }

    @Test(
        "an .mp4 (H.264) decodes back to the frames and size asked",
        .enabled(
            if: MediaFramework.hasElement("x264enc") && MediaFramework.hasElement("avdec_h264"),
            "needs x264enc (gstreamer1.0-plugins-ugly) and avdec_h264 (gstreamer1.0-libav), not installed here"))
    func mp4() throws {
        let dir = TestPaths.temporaryDirectory("tiltfx")
        defer { try? FileManager.default.removeItem(at: dir) }
        let video = dir.appendingPathComponent("clip.mp4").path
        let r = try TiltFXProcess.run(Self.render(video))
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(try VideoProbe.scan(video) == VideoProbe.Summary(frames: 12, width: 160, height: 90))
    }

    @Test(
        "without x264enc an .mp4 stops at once, naming the package to install",
        .enabled(if: !MediaFramework.hasElement("x264enc"), "x264enc is installed here"))
    func mp4WithoutAnH264Encoder() throws {
        let dir = TestPaths.temporaryDirectory("tiltfx")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try TiltFXProcess.run(Self.render(dir.appendingPathComponent("clip.mp4").path))
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("error: no H.264 encoder is installed for .mp4"), "\(r.stderr)")
        #expect(r.stderr.contains("apt install gstreamer1.0-plugins-ugly"), "\(r.stderr)")
        #expect(r.stderr.contains("or write a .webm file (VP9)"), "\(r.stderr)")
        #expect(files(dir).isEmpty)
    }

    @Test("a .gif is an animated GIF89a")
    func gif() throws {
        let dir = TestPaths.temporaryDirectory("tiltfx")
        defer { try? FileManager.default.removeItem(at: dir) }
        let video = dir.appendingPathComponent("clip.gif").path
        let r = try TiltFXProcess.run(Self.render(video, frames: 4))
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(!r.stderr.contains("give --fps 50 or less"), "24 fps is fine: \(r.stderr)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: video))
        #expect(bytes.starts(with: Array("GIF89a".utf8)) && bytes.last == 0x3B)
        #expect(files(dir) == ["clip.gif"])
        let fast = try TiltFXProcess.run(Self.render(video, frames: 2, extra: ["--fps", "60"]))
        #expect(fast.status == 0 && fast.stderr.contains("--fps 60 will play slower than asked"), "\(fast.stderr)")
    }

    @Test("usage mistakes: a video without --frames, a codec the container cannot hold, a video tiltfx does not write")
    func usageMistakes() throws {
        let out = TestPaths.temporaryDirectory("tiltfx").appendingPathComponent("clip.webm").path
        let noFrames = try TiltFXProcess.run(["render", "--presets", Self.presets, "--preset", "foil", "--out", out])
        #expect(noFrames.status == 64 && noFrames.stderr.contains("say how long with --frames N"), "\(noFrames.stderr)")
        let h264 = try TiltFXProcess.run(Self.render(out, extra: ["--codec", "h264"]))
        #expect(h264.status == 64 && h264.stderr.contains("a .webm file holds vp9 or vp8"), "\(h264.stderr)")
        let mkv = try TiltFXProcess.run(Self.render(out + ".mkv"))
        #expect(mkv.status == 64 && mkv.stderr.contains("tiltfx writes videos as .webm"), "\(mkv.stderr)")
        let pngCodec = try TiltFXProcess.run(Self.render(out + "-frames", extra: ["--codec", "vp9"]))
        #expect(pngCodec.status == 64 && pngCodec.stderr.contains("--codec applies to a video"), "\(pngCodec.stderr)")
    }

    @Test("a folder that does not exist is refused before rendering, saying to create it")
    func missingFolder() throws {
        let out = TestPaths.temporaryDirectory("tiltfx").appendingPathComponent("no/such/clip.webm").path
        let r = try TiltFXProcess.run(Self.render(out))
        #expect(r.status == 1)
        let folder = String(out.dropLast("/clip.webm".count))
        #expect(r.stderr.contains("error: cannot create \(out): the folder \(folder) does not exist"), "\(r.stderr)")
        #expect(r.stderr.contains("create it (mkdir -p \(folder))"), "\(r.stderr)")
    }

    @Test(
        "a disk that fills up while encoding (a 16 KiB tmpfs) stops with a clear error and leaves no partial video",
        .enabled(
            if: FakeIIOTree.namespacesWork, "unprivileged user+mount namespaces (unshare -rm) are not permitted here"))
    func fullDisk() throws {
        let dir = TestPaths.temporaryDirectory("tiltfx")
        defer { try? FileManager.default.removeItem(at: dir) }
        // In a private mount namespace: a tiny tmpfs over the folder, the render, then what is left in it.
        let script = "mount -t tmpfs -o size=16k tmpfs \"$0\" && \"$@\"; status=$?; ls -A \"$0\"; exit $status"
        // holo-card's pattern makes some 45 KB of VP9 at this size.
        let arguments = Self.render(dir.path + "/big.webm", preset: "holo-card", size: "640x360", frames: 48)
        let r = try ChildProcess.run(
            "/usr/bin/unshare", ["-rm", "sh", "-c", script, dir.path, TestPaths.executable("tiltfx")] + arguments,
            environment: ["EGL_PLATFORM": "surfaceless", "LIBGL_ALWAYS_SOFTWARE": "1", "TILT_PRESETS": ""])
        #expect(r.status == 1, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("error: cannot write \(dir.path)/big.webm: the disk is full"), "\(r.stderr)")
        #expect(r.stderr.contains("the partial video was removed; free some space"), "\(r.stderr)")
        #expect(r.stdout.isEmpty, "left on the full disk: \(r.stdout)")
    }

    @Test(
        "a read-only folder is refused before rendering, saying so",
        .enabled(
            if: FakeIIOTree.namespacesWork, "unprivileged user+mount namespaces (unshare -rm) are not permitted here"))
    func readOnlyFolder() throws {
        let dir = TestPaths.temporaryDirectory("tiltfx")
        defer { try? FileManager.default.removeItem(at: dir) }
        // Root may write anywhere its permissions say no; a read-only mount stops even root.
        let script = "mount -t tmpfs -o ro tmpfs \"$0\" && exec \"$@\""
        let r = try ChildProcess.run(
            "/usr/bin/unshare",
            ["-rm", "sh", "-c", script, dir.path, TestPaths.executable("tiltfx")] + Self.render(dir.path + "/a.webm"),
            environment: ["EGL_PLATFORM": "surfaceless", "LIBGL_ALWAYS_SOFTWARE": "1", "TILT_PRESETS": ""])
        #expect(r.status == 1)
        #expect(
            r.stderr.contains("error: cannot create \(dir.path)/a.webm: the folder \(dir.path) is read-only"),
            "\(r.stderr)")
    }

    @Test(
        "Ctrl-C (SIGINT) or SIGTERM during encoding leaves no partial video, and says what was kept",
        arguments: [SIGINT, SIGTERM])
    func interrupted(signal: Int32) throws {
        let dir = TestPaths.temporaryDirectory("tiltfx")
        defer { try? FileManager.default.removeItem(at: dir) }
        let errors = TestPaths.temporaryDirectory("tiltfx-err").appendingPathComponent("stderr").path
        defer { try? FileManager.default.removeItem(atPath: (errors as NSString).deletingLastPathComponent) }
        _ = FileManager.default.createFile(atPath: errors, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestPaths.executable("tiltfx"))
        process.arguments = Self.render(dir.path + "/long.webm", size: "320x180", frames: 1400)
        process.environment = ProcessInfo.processInfo.environment.merging([
            "EGL_PLATFORM": "surfaceless", "LIBGL_ALWAYS_SOFTWARE": "1", "TILT_PRESETS": "",
        ]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errors))
        try process.run()
        // Waits until the encoder has written part of the video.
        let deadline = Deadline(seconds: 60)
        func partialSize() -> Int {
            let partial = files(dir).first { $0.hasPrefix(".partial-") }
            let attributes = partial.flatMap { try? FileManager.default.attributesOfItem(atPath: dir.path + "/" + $0) }
            return (attributes?[.size] as? Int) ?? 0
        }
        while process.isRunning && partialSize() == 0 && !deadline.hasPassed { usleep(20_000) }
        #expect(process.isRunning && partialSize() > 0, "the render wrote part of the video before the signal")
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        #expect(
            process.terminationReason == .uncaughtSignal && process.terminationStatus == signal,
            "\(process.terminationReason == .exit ? "exited" : "signalled") \(process.terminationStatus)")
        #expect(files(dir).isEmpty, "left behind: \(files(dir))")
        let said = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        #expect(
            said.contains("interrupted: the video \(dir.path)/long.webm was not written (its partial file is removed)"),
            "\(said)")
    }
}
