#if canImport(Glibc)
import Glibc
#endif
import Logging
import NIOCore
import TiltWire
import NIOPosix
import ServiceLifecycle
import Synchronization
import TiltWire

/// The Unix-socket server: accepts clients and gives each a `SessionHandler`, until graceful shutdown.
struct SocketServer: Service {
    let path: String
    let hub: Hub
    let group: MultiThreadedEventLoopGroup
    let logger: Logger
    /// Called once the socket accepts connections.
    let onReady: @Sendable () -> Void

    func run() async throws {
        try SocketFile.prepare(path)
        let hub = self.hub
        let logger = self.logger
        let oldMask = umask(0o117)  // the socket file gets mode 0660
        let channel: any Channel
        do {
            channel = try await ServerBootstrap(group: group)
                .serverChannelOption(.backlog, value: 256)
                .childChannelOption(.writeBufferWaterMark, value: .init(low: 4 * 1024, high: 16 * 1024))
                .childChannelOption(.socketOption(.so_sndbuf), value: 32 * 1024)
                .childChannelInitializer { child in
                    child.eventLoop.makeCompletedFuture {
                        try child.pipeline.syncOperations.addHandler(
                            ByteToMessageHandler(LineFrameDecoder(maxLength: WireProtocol.maxLineLength)))
                        try child.pipeline.syncOperations.addHandler(SessionHandler(hub: hub, logger: logger))
                    }
                }
                .bind(unixDomainSocketPath: path)
                .get()
        } catch {
            umask(oldMask)
            throw DaemonError("cannot listen on \(path): \(error)")
        }
        umask(oldMask)
        let identity = SocketFile.identity(path)
        logger.notice("listening", metadata: ["socket": "\(path)"])
        onReady()

        try? await gracefulShutdown()
        logger.notice("shutting down")
        try? await channel.close()
        await hub.closeAll()
        SocketFile.remove(path, ifIdentity: identity)
    }
}
