import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import Synchronization
import TiltCore
import TiltWire

#if canImport(Glibc)
    import Glibc
#endif

/// The Unix-socket server: accepts clients and gives each a `SessionHandler`, until graceful shutdown.
///
/// It creates the socket file (mode 0660, given to `socket_group` when one is set) and removes it at shutdown, or,
/// under systemd socket activation, serves the listening socket systemd passed and leaves the file to systemd.
struct SocketServer: Service {
    let path: String
    let hub: Hub
    let group: MultiThreadedEventLoopGroup
    let settings: DaemonSettings
    let logger: Logger
    /// The listening socket systemd passed, if any.
    let passedListener: Int32?
    /// Called once the socket accepts connections.
    let onReady: @Sendable () -> Void

    func run() async throws {
        let hub = self.hub
        let logger = self.logger
        let settings = self.settings
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 1024)
            .childChannelOption(.writeBufferWaterMark, value: .init(low: 4 * 1024, high: 16 * 1024))
            .childChannelOption(.socketOption(.so_sndbuf), value: 32 * 1024)
            .childChannelInitializer { child in
                child.eventLoop.makeCompletedFuture {
                    let maxLineLength = settings.policy.maxLineLength
                    try child.pipeline.syncOperations.addHandler(
                        ByteToMessageHandler(LineFrameDecoder(maxLength: maxLineLength)))
                    try child.pipeline.syncOperations.addHandler(LineFrameEncoder())
                    try child.pipeline.syncOperations.addHandler(
                        SessionHandler(hub: hub, settings: settings, maxLineLength: maxLineLength, logger: logger))
                }
            }
        let channel: any Channel
        var identity: (UInt64, UInt64)?
        if let fd = passedListener {
            do {
                channel = try await bootstrap.withBoundSocket(fd).get()
            } catch {
                throw DaemonError(.systemd, "cannot serve the socket systemd passed (fd \(fd)): \(error)")
            }
            logger.notice("listening on the socket systemd passed", metadata: ["socket": "\(path)", "fd": "\(fd)"])
        } else {
            try SocketFile.prepare(path)
            let oldMask = umask(0o117)  // the socket file gets mode 0660
            do {
                channel = try await bootstrap.bind(unixDomainSocketPath: path).get()
            } catch {
                umask(oldMask)
                throw DaemonError(.socket, "cannot listen on \(path): \(Self.explain(error, path: path))")
            }
            umask(oldMask)
            identity = SocketFile.identity(path)
            if let group = settings.policy.socketGroup {
                do {
                    try SocketFile.setGroup(path, group: group)
                } catch {
                    try? await channel.close()
                    SocketFile.remove(path, ifIdentity: identity)
                    throw error
                }
            }
            logger.notice(
                "listening",
                metadata: [
                    "socket": "\(path)", "group": "\(settings.policy.socketGroup?.name ?? "default")", "mode": "0660",
                ])
        }
        onReady()

        try? await gracefulShutdown()
        logger.notice("shutting down")
        Systemd.notify("STOPPING=1")
        try? await channel.close()
        await hub.closeAll()
        SocketFile.remove(path, ifIdentity: identity)
    }

    /// Why binding `path` failed and what to do, from the `errno` NIO carries (its own text names its system call).
    static func explain(_ error: any Error, path: String) -> String {
        guard let io = error as? IOError else { return "\(error); choose another --socket" }
        let code = io.errnoCode
        let folder = OutputPath.folder(of: path)
        switch OutputPath.creationFailure(path, in: folder, code: code).problem {
        case .missingFolder(let missing):
            return "the folder \(missing) does not exist; create it (mkdir -p \(missing)) or choose another --socket"
        case .notFolder(let file):
            return "\(file) is a file, not a folder; choose another --socket"
        case .folderRefuses(let refusing, let code) where code == ENOENT:
            return "the folder \(refusing) takes no new files (a system folder such as /proc or /sys); choose "
                + "another --socket, e.g. $XDG_RUNTIME_DIR/tiltd.sock"
        case .folderRefuses(let refusing, let code) where code == EROFS:
            return "the folder \(refusing) is read-only; choose another --socket"
        case .folderRefuses(let refusing, _):
            return "no permission to create a file in \(refusing); choose another --socket, or run tiltd as a user "
                + "who may write there"
        default:
            return "\(String(cString: strerror(code))) (errno \(code)); choose another --socket"
        }
    }
}
