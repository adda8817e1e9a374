import Foundation
import TiltTestKit

#if canImport(Glibc)
    import Glibc
#endif

/// A real `tiltfx serve` on a free port, with a private web folder and a private copy of the bundled presets (so
/// saves never touch the repository), pointed at `socket`.
final class ServeProcess {
    let directory: URL
    let presets: URL
    let web: URL
    let process: BackgroundProcess
    let port: Int
    let token: String
    let url: String

    /// Starts `tiltfx serve --listen listen` with `extra` arguments.
    init(socket: String, in directory: URL, listen: String = "127.0.0.1:0", extra: [String] = []) throws {
        self.directory = directory
        presets = directory.appendingPathComponent("presets")
        web = directory.appendingPathComponent("web")
        let manager = FileManager.default
        try manager.createDirectory(at: presets, withIntermediateDirectories: true)
        try manager.createDirectory(at: web, withIntermediateDirectories: true)
        for name in ["holo-card", "foil"] {
            try manager.copyItem(
                at: TestPaths.repositoryRoot.appendingPathComponent("Presets/\(name)"),
                to: presets.appendingPathComponent(name))
        }
        try Data("<!doctype html><title>tilt</title>\n".utf8).write(to: web.appendingPathComponent("index.html"))
        try Data("export const tilt = 1;\n".utf8).write(to: web.appendingPathComponent("tilt.js"))
        setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1)
        process = try BackgroundProcess(
            TestPaths.executable("tiltfx"),
            ["serve", "--listen", listen, "--socket", socket, "--presets", presets.path, "--web", web.path]
                + extra)
        let process = self.process
        guard eventually(timeout: 20, { !process.stdoutLines.isEmpty || !process.process.isRunning }),
            let first = process.stdoutLines.first, let components = URLComponents(string: first),
            let port = components.port,
            let token = components.queryItems?.first(where: { $0.name == "token" })?.value
        else { throw TestError("tiltfx serve printed no URL; stderr: \(process.stderr)") }
        self.url = first
        self.port = port
        self.token = token
    }

    /// A WebSocket to `path` (`/motion` or `/edit`) with this start's token.
    func socket(_ path: String, origin: String? = nil) throws -> WebSocketTestClient {
        try WebSocketTestClient(port: port, path: "\(path)?token=\(token)", origin: origin)
    }

    /// The JSON object of a message.
    static func object(_ text: String?) -> [String: Any]? { WebSocketTestClient.object(text) }
}
