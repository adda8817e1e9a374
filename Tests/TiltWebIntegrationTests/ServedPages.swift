import Foundation
import TiltTestKit

#if canImport(Glibc)
    import Glibc
#endif

/// The real programs behind the pages: `tiltd --replay` of the bundled BROAD excerpt (looping at 4× speed, so the
/// motion never ends and the pose changes within seconds) and `tiltfx serve` on a free loopback port, serving this
/// checkout's `Web/` and a copy of its `Presets/`.
final class ServedPages {
    let directory = TestPaths.temporaryDirectory("tilt-web")
    let daemon: DaemonProcess
    let server: BackgroundProcess
    /// The presets folder it serves: a copy of the repository's `Presets/`.
    let presets: URL
    /// The URL `tiltfx serve` printed first: `http://127.0.0.1:PORT/?token=…`.
    let url: URL
    /// The token from that URL.
    let token: String

    init() throws {
        daemon = try DaemonProcess.replaying(["--loop", "--speed", "4"], in: directory)
        let root = TestPaths.repositoryRoot
        setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1)  // the server compiles on Mesa's llvmpipe, headless
        // A private copy of the presets, so that a save can never change the repository's.
        presets = directory.appendingPathComponent("presets")
        try FileManager.default.copyItem(at: root.appendingPathComponent("Presets"), to: presets)
        server = try BackgroundProcess(
            TestPaths.executable("tiltfx"),
            [
                "serve", "--listen", "127.0.0.1:0", "--socket", DaemonProcess.temporarySocket(in: directory),
                "--presets", presets.path,
                "--web", root.appendingPathComponent("Web").path,
            ])
        let server = self.server
        guard eventually(timeout: 30, { !server.stdoutLines.isEmpty || !server.process.isRunning }),
            let first = server.stdoutLines.first, let url = URL(string: first),
            let token = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?
                .first(where: { $0.name == "token" })?.value
        else {
            throw TestError("tiltfx serve printed no URL first; its output:\n\(server.stdout)\n\(server.stderr)")
        }
        self.url = url
        self.token = token
    }

    deinit {
        server.kill(SIGTERM)
        daemon.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// The address of the page `name` (`index.html`, `example.html`) with the token and `query` (`test=1&…`).
    func page(_ name: String, _ query: String) -> String {
        "http://\(url.host ?? "127.0.0.1"):\(url.port ?? 0)/\(name)?token=\(token)&\(query)"
    }
}
