import Foundation
import Testing
import TiltRenderTestKit
import TiltTestKit

/// `tiltfx render --frames` driven by a real `tiltd` replaying a log, and the message when no daemon answers.
@Suite(.serialized) struct DaemonDrivenTests {
    @Test func framesFollowARunningDaemon() throws {
        let dir = TestPaths.temporaryDirectory("tiltfx")
        let socket = dir.appendingPathComponent("d.sock").path
        let daemon = try DaemonProcess(
            socketPath: socket, arguments: ["--replay", TestPaths.broadExcerpt, "--speed", "4", "--loop"])
        defer { if daemon.stop(timeout: 3) == nil { daemon.stop(signal: SIGKILL) } }
        let out = dir.appendingPathComponent("frames").path
        let r = try TiltFXProcess.run([
            "render", "--presets", GLTestEnvironment.presetsDirectory, "--preset", "tilt-specular", "--size", "24x24",
            "--frames", "4", "--fps", "20", "--socket", socket, "--out", out,
        ])
        #expect(r.status == 0, "stderr: \(r.stderr)\ndaemon: \(daemon.log)")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []
        #expect(files.sorted() == (0..<4).map { "frame-0000\($0).png" })
    }

    @Test func noDaemonExitsNonZeroSayingWhatToDo() throws {
        let dir = TestPaths.temporaryDirectory("tiltfx")
        let r = try TiltFXProcess.run([
            "render", "--presets", GLTestEnvironment.presetsDirectory, "--preset", "foil", "--size", "16x16",
            "--frames", "2", "--socket", dir.appendingPathComponent("none.sock").path, "--out", dir.path,
        ])
        #expect(r.status != 0)
        #expect(r.stderr.contains("no frames from tiltd") && r.stderr.contains("--replay"), "stderr: \(r.stderr)")
    }

    @Test func watchRerendersWhenTheShaderChanges() throws {
        let copy = try GLTestEnvironment.copyPreset("tilt-specular")
        let out = copy.root + "/watch.png"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestPaths.executable("tiltfx"))
        process.arguments = [
            "render", "--presets", copy.root, "--preset", "tilt-specular", "--size", "32x32", "--out", out, "--watch",
        ]
        var env = ProcessInfo.processInfo.environment
        env["EGL_PLATFORM"] = "surfaceless"
        env["LIBGL_ALWAYS_SOFTWARE"] = "1"
        process.environment = env
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            // SIGKILL: the test runner's blocked-signal mask is inherited, so SIGTERM may never arrive.
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        /// A whole PNG: it ends with the IEND chunk (a picture still being written does not).
        func wholePNG() -> Data? {
            guard let data = try? Data(contentsOf: URL(fileURLWithPath: out)) else { return nil }
            return data.suffix(8) == Data([0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]) ? data : nil
        }
        #expect(eventually(timeout: 5) { wholePNG() != nil }, "the first picture is written")
        let first = try #require(wholePNG())
        let shader = copy.directory + "/specular.glsl"
        let text = try String(contentsOfFile: shader, encoding: .utf8)
        try text.replacingOccurrences(of: "vec3(0.03, 0.03, 0.04)", with: "vec3(0.6, 0.2, 0.04)")
            .write(toFile: shader, atomically: true, encoding: .utf8)
        #expect(
            eventually(timeout: 5) {
                (try? Data(contentsOf: URL(fileURLWithPath: out))).map { $0 != first && !$0.isEmpty } ?? false
            })
    }
}
