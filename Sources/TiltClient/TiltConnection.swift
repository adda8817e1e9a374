import NIOCore
import NIOPosix
import TiltCore
import TiltWire

/// One connection to the daemon, for one-shot requests (`tilt status`, `tilt tare`) and for ``TiltSubscriber``.
public enum TiltConnection {
    /// A connected channel carrying lines in and bytes out.
    public typealias Channel = NIOAsyncChannel<LineEvent, ByteBuffer>

    /// Connects to the daemon's socket (through ``DaemonSocket/connect(path:timeout:)``) and frames its lines.
    ///
    /// - Throws: ``TiltClientError`` whose kind says whether the daemon is not running, the socket is not this
    ///   user's, or the socket is unusable.
    public static func open(socketPath: String) async throws -> Channel {
        let descriptor = try DaemonSocket.connect(path: socketPath)
        do {
            return try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .withConnectedSocket(descriptor) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(
                            ByteToMessageHandler(LineFrameDecoder(maxLength: 1 << 20)))
                        return try Channel(wrappingChannelSynchronously: channel)
                    }
                }
        } catch {
            throw TiltClientError.connection(to: socketPath, failedWith: error)
        }
    }

    /// Writes one command line.
    public static func write(_ command: ClientCommand, to outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>)
        async throws
    {
        try await outbound.write(WireLine(command).bytes)
    }

    /// Sends `command` and returns the first answer that `accept` takes (skipping `hello` and frames).
    ///
    /// - Parameters:
    ///   - socketPath: The `--socket` the user gave, if any; resolved by `SocketPath.resolveForClient`.
    ///   - timeout: Seconds to wait for the answer.
    /// - Throws: ``TiltClientError``: the connection failed, the daemon answered `error` (`.refused`), closed the
    ///   connection first (`.connectionClosed`) or did not answer in time (`.timeout`).
    public static func request(
        _ command: ClientCommand, socketPath: String? = nil, timeout: Double = 5,
        accept: @escaping @Sendable (ServerMessage) -> Bool
    ) async throws -> ServerMessage {
        let path = SocketPath.resolveForClient(socketPath)
        let channel = try await open(socketPath: path)
        return try await withThrowingTaskGroup(of: ServerMessage?.self) { group in
            group.addTask {
                try await channel.executeThenClose { inbound, outbound in
                    try await write(command, to: outbound)
                    for try await event in inbound {
                        guard case .line(let line) = event,
                            let message = try ServerMessage.decode(line.readableBytesView)
                        else { continue }
                        if case .error(let text) = message {
                            throw TiltClientError(.refused, "tiltd answered: \(text)")
                        }
                        if accept(message) { return message }
                    }
                    throw TiltClientError(.connectionClosed, "tiltd closed the connection before answering")
                }
            }
            group.addTask {
                try await Task.sleep(for: .seconds(timeout))
                return nil
            }
            defer { group.cancelAll() }
            let first: ServerMessage??
            do {
                first = try await group.next()
            } catch {
                throw TiltClientError.connection(to: path, failedWith: error)
            }
            guard let first, let answer = first else {
                throw TiltClientError(.timeout, "tiltd at \(path) did not answer within \(timeout) s")
            }
            return answer
        }
    }
}
