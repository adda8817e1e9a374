import Logging
import NIOCore
import TiltCore
import TiltWire

/// One client connection: answers its commands and passes it the frames the hub sends.
///
/// Lives on the connection's event loop. Frames are written only while the channel is writable: a client that does
/// not read fills its small socket buffer, the channel turns unwritable, and further frames are dropped and counted
/// instead of queued. So a stalled client costs the daemon nothing and never delays anyone else.
final class SessionHandler: ChannelInboundHandler {
    typealias InboundIn = LineEvent
    typealias OutboundOut = ByteBuffer

    /// What is being delivered, for counting.
    enum Kind {
        case frame
        case sample
        case event
        case reply
    }

    private let hub: Hub
    private var logger: Logger
    private var context: ChannelHandlerContext?
    private(set) var id: UInt64 = 0
    private var sent: UInt64 = 0
    private var dropped: UInt64 = 0
    private var errors: UInt64 = 0
    private var peer: PeerCredentials?

    init(hub: Hub, logger: Logger) {
        self.hub = hub
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
        id = hub.register(session: bound, eventLoop: context.eventLoop)
        logger[metadataKey: "client"] = "\(id)"
        PeerCredentials.read(channel: context.channel) { credentials in
            bound.value.peer = credentials
            if let credentials {
                bound.value.logger.info("client connected", metadata: ["uid": "\(credentials.uid)", "pid": "\(credentials.pid)"])
            } else {
                bound.value.logger.info("client connected")
            }
        }
        reply(hub.hello)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        hub.unregister(id: id)
        logger.info("client disconnected", metadata: ["sent": "\(sent)", "dropped": "\(dropped)"])
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .overlong(let length):
            fail("line too long (at least \(length) bytes; the limit is \(WireProtocol.maxLineLength)); it was discarded")
        case .line(let line):
            let bytes = line.readableBytesView
            if bytes.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) { return }
            do {
                handle(try ClientCommand.decode(bytes))
            } catch {
                fail(error.message)
            }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        logger.debug("connection error: \(error)")
        context.close(promise: nil)
    }

    private func handle(_ command: ClientCommand) {
        switch command {
        case .watch(let enable, let rate, let raw):
            hub.setWatch(id: id, enable: enable, rate: rate, raw: raw)
        case .poll:
            if let frame = hub.poll(id: id) { reply(.attitude(frame)) }
        case .status:
            let me = StatusReport.Client(
                id: id, watching: false, rate: nil, raw: false, sent: sent, dropped: dropped, errors: errors,
                uid: peer?.uid, pid: peer?.pid)
            reply(.status(hub.status(client: me)))
        case .tare:
            if let reference = hub.tare() {
                logger.info("tare", metadata: ["reference": "\(reference)"])
                reply(.tare(reference: reference))
            } else {
                reply(.tare(reference: .identity))
            }
        }
    }

    private func fail(_ message: String) {
        errors &+= 1
        logger.debug("bad line: \(message)")
        reply(.error(message: message))
    }

    private func reply(_ message: ServerMessage) {
        guard let context else { return }
        var buffer = context.channel.allocator.buffer(capacity: 256)
        buffer.writeString(message.jsonLine)
        buffer.writeInteger(UInt8(ascii: "\n"))
        deliver(buffer, kind: .reply)
    }

    /// Closes the connection (at daemon shutdown).
    func close() {
        context?.close(promise: nil)
    }

    /// Writes `buffer` if the client is keeping up; otherwise drops it and counts it (replies are always written).
    func deliver(_ buffer: ByteBuffer, kind: Kind) {
        guard let context, context.channel.isActive else { return }
        if kind != .reply, !context.channel.isWritable {
            if kind == .frame { dropped &+= 1 }
            return
        }
        context.writeAndFlush(wrapOutboundOut(buffer), promise: nil)
        if kind == .frame { sent &+= 1 }
    }
}
