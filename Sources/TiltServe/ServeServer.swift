import FoundationEssentials
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import TiltCore
import TiltEffects

/// `tiltfx serve`'s server: HTTP/1.1 on swift-nio, with the `/motion` and `/edit` WebSockets upgraded by
/// `NIOWebSocketServerUpgrader` after the token, `Origin` and client-count checks.
///
/// ```swift
/// let server = try ServeServer.start(configuration, logger: logger)
/// print(server.url)          // http://127.0.0.1:8765/?token=…
/// try server.waitUntilClosed()
/// ```
package final class ServeServer: Sendable {
    /// What every connection's handlers share: the access rules, the limits, the folders and the client count.
    final class Shared: Sendable {
        let access: ServeAccess
        let limits: ServeConfiguration.Limits
        let webDirectory: String
        let workspace: PresetWorkspace
        let socketPath: String
        let compiler: ShaderCompileThread
        let logger: Logger
        private let clients = NIOLockedValueBox(0)

        init(configuration: ServeConfiguration, port: Int, compiler: ShaderCompileThread, logger: Logger) {
            access = ServeAccess(
                token: configuration.token, host: configuration.host, port: port,
                allowedOrigins: configuration.allowedOrigins)
            limits = configuration.limits
            webDirectory = URL(fileURLWithPath: configuration.webDirectory).standardizedFileURL.path
            workspace = PresetWorkspace(library: configuration.library)
            socketPath = configuration.socketPath
            self.compiler = compiler
            self.logger = logger
        }

        /// Whether the WebSocket connections are at their limit.
        var isFull: Bool { clients.withLockedValue { $0 >= limits.maxClients } }

        /// Counts a new WebSocket connection, unless full; `false` when full.
        func admit() -> Bool {
            clients.withLockedValue {
                guard $0 < limits.maxClients else { return false }
                $0 += 1
                return true
            }
        }

        /// Counts a WebSocket connection gone.
        func release() { clients.withLockedValue { $0 -= 1 } }

        /// The path of the page `name` directly in the web folder: a plain file, no subfolder, no leading dot.
        func webFile(_ name: String) -> String? {
            guard PresetWorkspace.isPlainName(name), !name.contains("%") else { return nil }
            let path = webDirectory + "/" + name
            return PresetWorkspace.isRegularFile(path) ? path : nil
        }

        /// The path of a preset's texture file (`.png`, `.jpg`, `.jpeg` directly in its folder).
        func textureFile(preset: String, file: String) -> String? {
            let ext = PathText.fileExtension(of: file).lowercased()
            guard PresetWorkspace.isPlainName(file), ["png", "jpg", "jpeg"].contains(ext),
                let directory = try? workspace.directory(of: preset)
            else { return nil }
            let path = directory + "/" + file
            let real = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
            guard real.hasPrefix(directory + "/"), PresetWorkspace.isRegularFile(real) else { return nil }
            return real
        }
    }

    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel
    private let shared: Shared
    /// Whether ``close()`` ran; its lock is held for the whole close.
    private let closing = NIOLockedValueBox(false)
    /// The address bound (the real port when 0 was asked).
    package let host: String
    /// The port bound.
    package let port: Int

    /// The page's URL with the token: the line `tiltfx serve` prints first.
    package var url: String {
        // A wildcard bind (every address) is shown as loopback: the page is meant for this machine.
        let shown = host == "0.0.0.0" || host == "::" ? "127.0.0.1" : host.contains(":") ? "[\(host)]" : host
        return "http://\(shown):\(port)/?token=\(shared.access.token)"
    }

    private init(group: MultiThreadedEventLoopGroup, channel: any Channel, shared: Shared, host: String, port: Int) {
        self.group = group
        self.channel = channel
        self.shared = shared
        self.host = host
        self.port = port
    }

    /// Binds and starts serving.
    /// - Throws: the bind's error (address in use, not an address of this machine).
    package static func start(_ configuration: ServeConfiguration, logger: Logger) throws -> ServeServer {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let compiler = ShaderCompileThread()
        let portBox = NIOLockedValueBox<Shared?>(nil)
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 64)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                guard let shared = portBox.withLockedValue({ $0 }) else {
                    return channel.close()
                }
                return Self.configure(channel, shared: shared)
            }
        let channel: any Channel
        do {
            channel = try bootstrap.bind(host: configuration.host, port: configuration.port).wait()
        } catch {
            compiler.stop()
            try? group.syncShutdownGracefully()
            throw ServeStartError(error)
        }
        let port = channel.localAddress?.port ?? configuration.port
        let shared = Shared(configuration: configuration, port: port, compiler: compiler, logger: logger)
        portBox.withLockedValue { $0 = shared }
        return ServeServer(group: group, channel: channel, shared: shared, host: configuration.host, port: port)
    }

    /// Waits until ``close()`` (or an error) closes the listening socket.
    package func waitUntilClosed() throws {
        try channel.closeFuture.wait()
        // Finishes the close here, or waits for the one under way on another thread (a signal handler's): the
        // program must not exit while the event loop and the GL thread are still being shut down (it aborted).
        close()
    }

    /// Stops listening, closes every connection and ends the GL thread; a second call (from another thread too)
    /// returns once the first has finished.
    package func close() {
        closing.withLockedValue { closed in
            guard !closed else { return }
            closed = true
            try? channel.close().wait()
            shared.compiler.stop()
            try? group.syncShutdownGracefully()
        }
    }

    private static let httpHandlerName = "tiltfx-serve-http"
    private static let idleHandlerName = "tiltfx-serve-idle"
    /// Seconds an HTTP connection may stay silent before it is closed.
    static let httpIdleSeconds: Int64 = 30

    private static func configure(_ channel: any Channel, shared: Shared) -> EventLoopFuture<Void> {
        let http = HTTPRequestHandler(server: shared)
        let upgrader = NIOWebSocketServerUpgrader(
            maxFrameSize: shared.limits.editMessageBytes,
            automaticErrorHandling: true,
            shouldUpgrade: { channel, head in
                let path = ServeAccess.path(of: head.uri)
                guard path == "/motion" || path == "/edit",
                    shared.access.refusal(uri: head.uri, headers: head.headers, checksOrigin: true) == nil,
                    shared.admit()
                else {
                    // Not upgraded: the request goes on to the HTTP handler, which answers why (403, 503, 404).
                    return channel.eventLoop.makeSucceededFuture(nil)
                }
                channel.closeFuture.whenComplete { _ in shared.release() }
                return channel.eventLoop.makeSucceededFuture(HTTPHeaders())
            },
            upgradePipelineHandler: { channel, head in
                let path = ServeAccess.path(of: head.uri)
                let motion = path == "/motion"
                let endpoint: any WebSocketEndpoint =
                    motion
                    ? MotionRelay(socketPath: shared.socketPath, logger: shared.logger, eventLoop: channel.eventLoop)
                    : EditEndpoint(workspace: shared.workspace, compiler: shared.compiler, logger: shared.logger)
                let maxMessage = motion ? shared.limits.motionMessageBytes : shared.limits.editMessageBytes
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandlers([
                        NIOWebSocketFrameAggregator(
                            minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 256,
                            maxAccumulatedFrameSize: maxMessage),
                        WebSocketSession(
                            endpoint: endpoint, maxMessage: maxMessage, limits: shared.limits, logger: shared.logger),
                    ])
                }
            })
        return channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.configureHTTPServerPipeline(
                withServerUpgrade: (
                    upgraders: [upgrader],
                    completionHandler: { context in
                        context.pipeline.removeHandler(name: Self.httpHandlerName, promise: nil)
                        context.pipeline.removeHandler(name: Self.idleHandlerName, promise: nil)
                    }
                ))
            try channel.pipeline.syncOperations.addHandler(http, name: Self.httpHandlerName)
            // An HTTP connection that sends nothing for a while is closed (a WebSocket is not: a page that only
            // watches sends nothing for as long as it likes).
            try channel.pipeline.syncOperations.addHandler(
                IdleStateHandler(readTimeout: .seconds(Self.httpIdleSeconds)), name: Self.idleHandlerName,
                position: .first)
        }
    }
}
