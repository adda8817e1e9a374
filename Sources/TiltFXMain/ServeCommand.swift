import ArgumentParser
import FoundationEssentials
import Logging
import TiltCore
import TiltServe
import TiltWire

/// `tiltfx serve`: the browser bridge (`/motion`) and the live shader editor (`/`, `/edit`); docs/serve.md.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the shader editor and the motion WebSocket to a browser on this machine.",
        discussion: """
            Prints the page's URL with a per-start token as its first line (http://127.0.0.1:8765/?token=…) and \
            serves until SIGTERM or Ctrl-C. /motion relays tiltd's protocol to a page; /edit compiles a preset's \
            GLSL with the real GL compiler (headless; without a GPU set LIBGL_ALWAYS_SOFTWARE=1) and saves it so \
            that every `tiltfx run` of it reloads. WebSockets need the token and the page's own Origin (or \
            --allow-origin). See docs/serve.md.
            """)

    @Option(help: ArgumentHelp("Where to listen (port 0 picks a free port).", valueName: "host:port"))
    var listen: String = "127.0.0.1:8765"

    @OptionGroup var daemon: DaemonSocketOption

    @OptionGroup var presets: PresetOptions

    @Option(
        help: ArgumentHelp("The folder of pages (default: Web/ of a clone, or the installed one).", valueName: "dir"))
    var web: String?

    @Option(
        name: .customLong("allow-origin"), parsing: .upToNextOption,
        help: ArgumentHelp(
            "Origins besides the server's own whose pages may connect (http://host:port).", valueName: "origin"))
    var allowOrigin: [String] = []

    func validate() throws {
        guard Self.address(listen) != nil else {
            throw ValidationError("--listen \(listen): give HOST:PORT with a port from 0 to 65535, e.g. 127.0.0.1:8765")
        }
        for origin in allowOrigin where !(origin.hasPrefix("http://") || origin.hasPrefix("https://")) {
            throw ValidationError("--allow-origin \(origin): give an origin such as http://localhost:3000")
        }
    }

    /// HOST and PORT of `HOST:PORT` (`[::1]:8765` for IPv6).
    static func address(_ text: String) -> (host: String, port: Int)? {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
            (0...65535).contains(port)
        else { return nil }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return host.isEmpty ? nil : (host, port)
    }

    func run() throws {
        try presets.requireDirectory()
        let logger = Logger(label: "tiltfx.serve")
        let folder = try webFolder()
        guard let (host, port) = Self.address(listen) else { throw ExitCode(64) }
        var configuration = ServeConfiguration(
            socketPath: SocketPath.resolveForClient(daemon.socket), library: presets.library, webDirectory: folder)
        configuration.host = host
        configuration.port = port
        configuration.allowedOrigins = allowOrigin
        let server: ServeServer
        do { server = try ServeServer.start(configuration, logger: logger) } catch {
            throw TiltFXError(
                "cannot listen on \(listen): \(error); pick another --listen HOST:PORT (port 0: any free)")
        }
        // Watched before the URL is printed: whoever reads it may ask serve to stop at once, and a SIGTERM then must
        // end it cleanly, not by the signal's default action.
        let stops = StopSignals { _ in server.close() }
        defer { stops.cancel() }
        // Through StandardOutput: a reader already gone (`tiltfx serve | true`) ends tiltfx instead of a server no one
        // was told the address of.
        try StandardOutput.line(server.url)
        if !ServeConfiguration.isLoopback(host) {
            StandardStream.error.write(
                Data(
                    ("warning: listening on \(host), not loopback: anyone who reaches this port and learns the token "
                        + "can read the motion and edit presets\n").utf8))
        }
        logger.info("serving \(folder) and presets; tiltd at \(configuration.socketPath)")
        try server.waitUntilClosed()
    }

    /// `--web`, else the first folder of the search that holds index.html.
    private func webFolder() throws -> String {
        if let web {
            guard FileManager.default.fileExists(atPath: web + "/index.html") else {
                throw TiltFXError("--web \(web): no index.html there; pass the folder of tilt's pages (Web/)")
            }
            return web
        }
        let searched = ServeConfiguration.webSearchPaths()
        guard let found = searched.first(where: { FileManager.default.fileExists(atPath: $0 + "/index.html") }) else {
            throw TiltFXError(
                "no pages found (searched \(searched.joined(separator: ", "))); pass --web DIR with tilt's Web/ folder")
        }
        return found
    }
}
