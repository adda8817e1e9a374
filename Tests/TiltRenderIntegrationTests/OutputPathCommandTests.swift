import Foundation
import Testing
import TiltRender
import TiltRenderTestKit
import TiltTestKit

#if canImport(Glibc)
    import Glibc
#endif

/// `tiltfx render --out`: every spelling of a wrong output is refused before any rendering, in words that say what is
/// wrong with it (issue 28: `--out x/` crashed, `/proc/x.png` said `/proc` does not exist, `--frames 2 --out
/// new.png` made a folder called `new.png`). None of these reaches GL.
@Suite(.serialized) struct OutputPathCommandTests {
    private func render(_ out: String, _ extra: [String] = []) throws -> TiltFXProcess {
        try TiltFXProcess.run(
            [
                "render", "--presets", GLTestEnvironment.presetsDirectory, "--preset", "foil", "--size", "16x16",
                "--out",
                out,
            ] + extra)
    }

    private func files(_ dir: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).sorted()
    }

    @Test("--out x/, ., ./ and a missing folder's name/: a usage mistake (64) pointing to a file name or --frames")
    func folderNamesForOneFrame() throws {
        let dir = TestPaths.temporaryDirectory("outpath")
        defer { try? FileManager.default.removeItem(at: dir) }
        for (out, example) in [
            ("x/", "x/frame.png"), (".", "frame.png"), ("./", "frame.png"),
            ("/tmp/nope-\(getpid())/", "/tmp/nope-\(getpid())/frame.png"),
        ] {
            let r = try render(out)
            #expect(r.status == 64, "\(out): \(r.stderr)")
            #expect(
                r.stderr.contains(
                    "--out \(out) names a folder, but one frame is one PNG file: give a file name (e.g. "
                        + "\(example)), or add --frames N"), "\(out): \(r.stderr)")
            #expect(!r.stderr.contains("does not exist"), "\(out): \(r.stderr)")
        }
        #expect(files(dir).isEmpty)
    }

    @Test(
        "--out /proc/x.png: /proc is named as taking no files, not as missing",
        .enabled(if: FileManager.default.fileExists(atPath: "/proc/self"), "needs Linux's /proc"))
    func systemFolder() throws {
        let dir = TestPaths.temporaryDirectory("outpath")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try render("/proc/x.png")
        #expect(r.status == 1, "\(r.stderr)")
        #expect(
            r.stderr.contains("error: cannot create /proc/x.png: the folder /proc takes no new files"), "\(r.stderr)")
    }

    @Test("--frames 2 --out new.png: refused (64), and no folder called new.png is made")
    func sequenceIntoAPictureName() throws {
        let dir = TestPaths.temporaryDirectory("outpath")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.path + "/new.png"
        let r = try render(out, ["--frames", "2", "--tilt", "0,0"])
        #expect(r.status == 64, "\(r.stderr)")
        #expect(r.stderr.contains("--frames N writes N pictures into a folder (or a video), not one .png file"))
        #expect(files(dir).isEmpty)
    }

    @Test("--frames into a path with a file on the way names the file")
    func sequenceUnderAFile() throws {
        let dir = TestPaths.temporaryDirectory("outpath")
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = FileManager.default.createFile(atPath: dir.path + "/afile", contents: Data())
        let r = try render(dir.path + "/afile/frames/", ["--frames", "2", "--tilt", "0,0"])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("\(dir.path)/afile is a file, not a folder"), "\(r.stderr)")
    }
}

/// Usage mistakes of `tiltfx`: exit 64, in the house style, the argument parser's own words too.
@Suite(.serialized) struct UsageStyleTests {
    @Test("--size out of range (20000x100, 0x0) is a usage mistake (64) that says the range")
    func sizeRange() throws {
        for size in ["20000x100", "0x0"] {
            let r = try TiltFXProcess.run([
                "render", "--presets", GLTestEnvironment.presetsDirectory, "--preset", "foil", "--size", size, "--out",
                "/tmp/x.png",
            ])
            #expect(r.status == 64, "\(size): \(r.stderr)")
            #expect(
                r.stderr.hasPrefix("error: --size \(size): each side must be from 1 to 16384 pixels"), "\(r.stderr)")
        }
    }

    @Test("an unknown option is told in lowercase, with the parser's suggestion after a ';'")
    func unknownOption() throws {
        let r = try TiltFXProcess.run(["render", "--preset", "foil", "--bogus", "--out", "/tmp/x.png"])
        #expect(r.status == 64)
        #expect(r.stderr.hasPrefix("error: unknown option '--bogus'; did you mean"), "\(r.stderr)")
        #expect(r.stderr.contains("Usage: tiltfx render"), "the usage still follows: \(r.stderr)")
    }

    @Test("a window larger than the display's usable area is scaled down to it, keeping its shape")
    func windowFit() {
        let fitted = WindowFit.fitted(width: 720, height: 960, within: (1280, 800 - 32))
        #expect(fitted.height <= Int(Double(768) * WindowFit.share))
        #expect(abs(Double(fitted.width) / Double(fitted.height) - 0.75) < 0.01)
        #expect(WindowFit.fitted(width: 720, height: 960, within: (1920, 1200)) == (720, 960) as (Int, Int))
        #expect(WindowFit.fitted(width: 720, height: 960, within: (0, 0)) == (720, 960) as (Int, Int))
    }
}
