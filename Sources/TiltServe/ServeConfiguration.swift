import FoundationEssentials
import TiltCore
import TiltEffects

/// What `tiltfx serve` serves and how: where it listens, where tiltd and the presets are, and its limits.
package struct ServeConfiguration: Sendable {
    /// The address to bind (`--listen HOST:PORT`; port 0 picks a free one).
    package var host: String = "127.0.0.1"
    /// The port to bind; 0 picks a free one.
    package var port: Int = 8765
    /// tiltd's socket, already resolved.
    package var socketPath: String
    /// Where presets are found (the same search as every `tiltfx` command).
    package var library: PresetLibrary
    /// The folder of pages (`Web/`).
    package var webDirectory: String
    /// Origins allowed besides the server's own (`--allow-origin`).
    package var allowedOrigins: [String] = []
    /// The token every WebSocket and `/presets/…` request must carry; random per start unless set (tests).
    package var token: String = ServeConfiguration.randomToken()
    /// The limits on clients and messages.
    package var limits = Limits()

    /// Limits that keep one page (or a foreign one) from exhausting the server.
    package struct Limits: Sendable {
        /// Largest `/edit` message, bytes.
        package var editMessageBytes = 256 * 1024
        /// Largest `/motion` message, bytes.
        package var motionMessageBytes = 4 * 1024
        /// Messages a second a connection may send on average.
        package var messagesPerSecond = 20.0
        /// Messages a connection may send at once after a quiet spell.
        package var messageBurst = 40.0
        /// Messages refused for the rate before the connection is closed with 1008.
        package var refusedBeforeClose = 100
        /// WebSocket connections at once.
        package var maxClients = 32

        /// The defaults.
        package init() {}
    }

    /// A configuration with the defaults for the rest.
    package init(socketPath: String, library: PresetLibrary, webDirectory: String) {
        self.socketPath = socketPath
        self.library = library
        self.webDirectory = webDirectory
    }

    /// 128 random bits from the system's generator, as 32 hex digits.
    package static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    /// Whether `host` is a loopback address (the default, safe bind).
    package static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
    }

    /// The folders searched for the pages, in order: `Web/` above the program or the working directory (a clone),
    /// then the installed `PREFIX/share/tilt/web` and `$XDG_DATA_DIRS`.
    package static func webSearchPaths() -> [String] {
        var paths: [String] = []
        var url = URL(fileURLWithPath: InstalledData.executablePath).deletingLastPathComponent()
        for _ in 0..<5 {
            paths.append(url.appendingPathComponent("Web").path)
            url.deleteLastPathComponent()
        }
        paths.append(URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("Web").path)
        return paths + InstalledData.directories(.web)
    }
}
