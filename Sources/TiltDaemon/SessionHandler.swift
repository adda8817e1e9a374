import Logging
import NIOCore
import TiltCore
import TiltWire

/// One client connection: answers its commands and passes it the frames the hub sends.
///
/// Lives on the connection's event loop. Frames are written only while the channel is writable: a client that does
/// not read fills its small socket buffer, the channel turns unwritable, and further frames are dropped and counted
/// instead of queued. So a stalled client costs the daemon nothing and never delays anyone else.
///
/// Half-close: the connection allows remote half-closure (`ChannelOptions.allowRemoteHalfClosure`, set when the
/// handler is added). A client that shuts down its sending side (`shutdown(SHUT_WR)`, `socat -u`, a script that
/// writes its command and closes stdin) still has its last line answered, even without a trailing newline. After
/// that the session can receive no more commands, so it stays open only while there is something to send: a
/// watcher keeps getting frames until it closes (a write then fails and the session ends), and a pending `poll`
/// is still answered; otherwise the session flushes what it wrote and closes.
///
/// Back-pressure: answers are always written (never dropped like frames), so a client that sends commands but does
/// not read its answers would make them pile up in the daemon without bound. Instead the session stops reading
/// from a client while its channel is unwritable, and reads again once it drains: the client's own sends then
/// block, and the daemon's memory for it stays bounded by a read's worth of answers.
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
    /// Whether this client watches frames (as it last asked).
    private var watching = false
    /// Whether a `poll` waits for the next frame.
    private var awaitingPoll = false
    /// Whether the client has shut down its sending side.
    private var inputClosed = false

    init(hub: Hub, logger: Logger) {
        self.hub = hub
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        try? context.channel.syncOptions?.setOption(.allowRemoteHalfClosure, value: true)
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

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // The line decoder has passed on the last line (if any) before this event arrives.
        if let event = event as? ChannelEvent, event == .inputClosed {
            inputClosed = true
            logger.debug("client half-closed", metadata: ["watching": "\(watching)"])
            closeIfDone()
        }
        context.fireUserInboundEventTriggered(event)
    }

    /// After a half-close, ends the session once nothing more is due to the client (what was written goes first).
    private func closeIfDone() {
        guard inputClosed, !watching, !awaitingPoll, let context else { return }
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(channel.allocator.buffer(capacity: 0))).whenComplete { _ in
            channel.close(promise: nil)
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if !context.channel.isWritable { setReading(false, context: context) }
        context.fireChannelReadComplete()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { setReading(true, context: context) }
        context.fireChannelWritabilityChanged()
    }

    private func setReading(_ on: Bool, context: ChannelHandlerContext) {
        guard let options = context.channel.syncOptions, (try? options.getOption(.autoRead)) != on else { return }
        try? options.setOption(.autoRead, value: on)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        logger.debug("connection error: \(error)")
        context.close(promise: nil)
    }

    private func handle(_ command: ClientCommand) {
        switch command {
        case .watch(let enable, let rate, let raw):
            watching = enable
            hub.setWatch(id: id, enable: enable, rate: rate, raw: raw)
        case .poll:
            if let frame = hub.poll(id: id) {
                reply(.attitude(frame))
            } else {
                awaitingPoll = true
            }
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
        if kind == .frame {
            sent &+= 1
            if awaitingPoll {
                awaitingPoll = false
                closeIfDone()
            }
        }
    }
}
