import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import Synchronization
import TiltCore
import TiltSensors
import TiltWire

/// `tiltd --dsu-server ADDRESS[:PORT]`: serves the sensor's motion in the DSU ("cemuhook") protocol on UDP, so
/// emulators take a tablet's motion as a controller's (issue 31; docs/dsu.md).
///
/// It answers version and controller-information requests, and sends one data packet per fused sample to every
/// client that asked for slot 0 (or all slots, or its MAC address) in the last 5 s. Subscribers count as watchers:
/// the sensor runs while there is one (``holder``, at emulators' rate). What it does with each datagram is
/// ``DSUServerLogic``; this moves the bytes on a NIO datagram channel and expires subscriptions every second, samples
/// or not.
final class DSUServerService: Service, HubObserver, Sendable {
    /// The DSU subscribers' hold on the sensor: what emulators read controllers at (a DualShock 4 reports at 250 Hz
    /// over USB).
    static let holder = Demand.Holder(name: "DSU subscribers", leastRate: 250)

    let listen: String
    private let channel: any Channel
    private let logic: DSUServerState
    private let hub: Hub
    private let logger: Logger

    /// Binds the UDP socket and starts answering.
    ///
    /// - Throws: ``DaemonError`` when the address cannot be bound (in use, not this machine's).
    static func start(
        endpoint: DSUEndpoint, hub: Hub, group: any EventLoopGroup, logger: Logger
    ) async throws(DaemonError) -> DSUServerService {
        let logic = DSUServerState()
        let counted = CountedSubscribers()
        let bootstrap = DatagramBootstrap(group: group)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        DSUDatagramHandler(logic: logic, hub: hub, counted: counted))
                }
            }
        let channel: any Channel
        do {
            channel = try await bootstrap.bind(host: endpoint.host, port: endpoint.port).get()
        } catch {
            throw DaemonError(
                .dsu, "cannot serve DSU on \(endpoint): \(Self.explain(error)); choose another --dsu-server address")
        }
        let service = DSUServerService(
            listen: channel.localAddress.map(Self.describe) ?? endpoint.description, channel: channel, logic: logic,
            hub: hub, logger: logger)
        if endpoint.isLoopback {
            logger.notice("serving DSU (cemuhook) motion on \(service.listen) (this machine only)")
        } else {
            logger.warning(
                """
                serving DSU (cemuhook) motion on \(service.listen), a non-loopback address, as dsu_server asks: \
                anyone who reaches it can read this device's motion
                """)
        }
        hub.attach(service)
        channel.eventLoop.scheduleRepeatedTask(initialDelay: .seconds(1), delay: .seconds(1)) { _ in
            let count = logic.withLock { l in
                l.expire(now: monotonicSeconds())
                return l.subscribers.count
            }
            counted.update(count, hub: hub)
        }
        return service
    }

    private init(
        listen: String, channel: any Channel, logic: DSUServerState, hub: Hub, logger: Logger
    ) {
        self.listen = listen
        self.channel = channel
        self.logic = logic
        self.hub = hub
        self.logger = logger
    }

    func run() async throws {
        try? await gracefulShutdown()
        try? await channel.close()
        hub.detach(self)
        hub.setHolders(Self.holder, count: 0)
    }

    func fused(_ sample: MotionSample, rotationRate: Vector3) {
        send(sample, rate: rotationRate)
    }

    func addStatus(to report: inout StatusReport) {
        report.dsu = logic.withLock { $0.report(listen: listen) }
    }

    /// Sends one sample to the subscribers (on the channel's event loop; the caller, the motion task, never waits).
    private func send(_ sample: MotionSample, rate: Vector3) {
        guard
            let (bytes, peers) = logic.withLock({
                $0.dataPacket(accel: sample.accel, rate: rate, time: sample.time, now: monotonicSeconds())
            })
        else { return }
        let channel = self.channel
        channel.eventLoop.execute {
            // A socket whose send buffer is full takes no more: a late motion packet is worth nothing, so it is not
            // queued (the next sample's goes out when there is room).
            guard channel.isWritable else { return }
            for peer in peers {
                let buffer = channel.allocator.buffer(bytes: bytes)
                channel.write(AddressedEnvelope(remoteAddress: peer, data: buffer), promise: nil)
            }
            channel.flush()
        }
    }

    /// `ADDRESS:PORT` of a bound socket, IPv6 in brackets.
    private static func describe(_ address: SocketAddress) -> String {
        let ip = address.ipAddress ?? "\(address)"
        let port = address.port.map(String.init) ?? "?"
        return ip.contains(":") ? "[\(ip)]:\(port)" : "\(ip):\(port)"
    }

    private static func explain(_ error: any Error) -> String {
        if let io = error as? IOError {
            switch io.errnoCode {
            case EADDRINUSE: return "the port is in use (another DSU server: DS4Windows, another tiltd?)"
            case EADDRNOTAVAIL: return "the address is not one of this machine's"
            case EACCES: return "permission denied (ports below 1024 need privileges)"
            default: return "\(io)"
            }
        }
        return "\(error)"
    }
}

/// The server's state, shared by the channel's handler, the motion observer and `status`.
private final class DSUServerState: Sendable {
    private let logic = Mutex(DSUServerLogic<SocketAddress>())

    func withLock<T>(_ body: (inout DSUServerLogic<SocketAddress>) -> T) -> T {
        logic.withLock { body(&$0) }
    }
}

/// The subscriber count last told to the hub, so it is told only of changes.
private final class CountedSubscribers: Sendable {
    private let last = Mutex(0)

    func update(_ count: Int, hub: Hub) {
        let changed = last.withLock { last in
            defer { last = count }
            return last != count
        }
        if changed { hub.setHolders(DSUServerService.holder, count: count) }
    }
}

/// Datagrams in, answers out, on the channel's event loop.
private final class DSUDatagramHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = AddressedEnvelope<ByteBuffer>
    typealias OutboundOut = AddressedEnvelope<ByteBuffer>

    private let logic: DSUServerState
    private let hub: Hub
    private let counted: CountedSubscribers

    init(logic: DSUServerState, hub: Hub, counted: CountedSubscribers) {
        self.logic = logic
        self.hub = hub
        self.counted = counted
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let envelope = unwrapInboundIn(data)
        let bytes = Array(envelope.data.readableBytesView)
        let peer = envelope.remoteAddress
        let (replies, count) = logic.withLock { l in
            let replies = l.handle(bytes, from: peer, host: peer.ipAddress ?? "\(peer)", now: monotonicSeconds())
            return (replies, l.subscribers.count)
        }
        counted.update(count, hub: hub)
        guard !replies.isEmpty else { return }
        for reply in replies {
            let buffer = context.channel.allocator.buffer(bytes: reply)
            context.write(wrapOutboundOut(AddressedEnvelope(remoteAddress: peer, data: buffer)), promise: nil)
        }
        context.flush()
    }

    /// A send the kernel refused (the client's port closed: ICMP unreachable) is not the server's end.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {}
}
