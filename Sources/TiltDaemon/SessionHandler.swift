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
/// The service policy applies here: a connection over `max_clients` gets one `error` and is closed; commands pass a
/// token bucket (`commands_per_second`) and a client that keeps flooding is disconnected; shared commands (`tare`)
/// are refused to anyone but the daemon's user, root and the admin group. While the channel is not writable the
/// session stops reading, and a client that lets many replies pile up unread is closed, so memory stays bounded.
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
/// block, and the daemon's memory for it stays bounded by a read's worth of answers (and by
/// ``maxPendingReplies``).
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

    /// Replies that may wait while the client does not read, before it is closed.
    static let maxPendingReplies = 256

    private let hub: Hub
    private let settings: DaemonSettings
    private var logger: Logger
    private var context: ChannelHandlerContext?
    private(set) var id: UInt64 = 0
    private var sent: UInt64 = 0
    private var dropped: UInt64 = 0
    private var errors: UInt64 = 0
    private var peer: PeerCredentials?
    /// The peer's groups, looked up at its first shared command (not at connect: NSS can be slow).
    private var peerGroups: Set<UInt32>?
    /// Turned away (the daemon was full) or being closed: read nothing more.
    private var closing = false
    private var registered = false
    private var bucket = TokenBucket(rate: 1, burst: 1)
    private var refusedInARow = 0
    private var pendingReplies = 0
    /// Whether this client watches frames (as it last asked).
    private var watching = false
    /// Whether a `poll` waits for the next frame.
    private var awaitingPoll = false
    /// Whether the client has shut down its sending side.
    private var inputClosed = false

    /// The line length this connection's decoder was made with (a reload applies to new connections).
    private let maxLineLength: Int

    init(hub: Hub, settings: DaemonSettings, maxLineLength: Int, logger: Logger) {
        self.hub = hub
        self.settings = settings
        self.maxLineLength = maxLineLength
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
        let policy = settings.policy
        bucket = TokenBucket(rate: policy.commandsPerSecond, burst: policy.commandBurst)
        guard let id = hub.register(session: bound, eventLoop: context.eventLoop, limit: policy.maxClients) else {
            closing = true
            logger.notice("client refused: the daemon is full", metadata: ["limit": "\(policy.maxClients)"])
            let message = ServerMessage.error(
                message: "the daemon is full (limit \(policy.maxClients) clients); try again later, or raise "
                    + "max_clients in the daemon's config")
            closeAfter(message, context: context)
            context.fireChannelActive()
            return
        }
        self.id = id
        registered = true
        logger[metadataKey: "client"] = "\(id)"
        PeerCredentials.read(channel: context.channel) { credentials in
            bound.value.peer = credentials
            if let credentials {
                bound.value.logger.info(
                    "client connected",
                    metadata: ["uid": "\(credentials.uid)", "gid": "\(credentials.gid)", "pid": "\(credentials.pid)"])
            } else {
                bound.value.logger.info("client connected")
            }
        }
        reply(hub.hello)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        if registered {
            hub.unregister(id: id)
            logger.info("client disconnected", metadata: ["sent": "\(sent)", "dropped": "\(dropped)"])
        }
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closing else { return }
        switch unwrapInboundIn(data) {
        case .overlong(let length):
            guard admit(context: context) else { return }
            fail("line too long (at least \(length) bytes; the limit is \(maxLineLength)); it was discarded")
        case .line(let line):
            let bytes = line.readableBytesView
            if bytes.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) { return }
            guard admit(context: context) else { return }
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

    /// Stops reading while the client does not take what is written; starts again once it does.
    func channelWritabilityChanged(context: ChannelHandlerContext) {
        let writable = context.channel.isWritable
        if writable { pendingReplies = 0 }
        setReading(writable, context: context)
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

    /// Whether the next command may run under the rate limit; refuses it (or disconnects a flooder) if not.
    private func admit(context: ChannelHandlerContext) -> Bool {
        let policy = settings.policy
        guard policy.commandsPerSecond > 0 else { return true }
        bucket.configure(rate: policy.commandsPerSecond, burst: policy.commandBurst)
        if bucket.take(at: monotonicSeconds()) {
            refusedInARow = 0
            return true
        }
        refusedInARow += 1
        errors &+= 1
        let rate = Self.format(policy.commandsPerSecond)
        if refusedInARow > policy.floodLimit {
            closing = true
            logger.notice(
                "client disconnected for flooding",
                metadata: ["refused": "\(refusedInARow)", "rate": "\(rate)", "uid": "\(peerUID)"])
            let message = ServerMessage.error(
                message: "rate limit: \(refusedInARow) commands in a row over \(rate) per second; disconnecting")
            closeAfter(message, context: context)
            return false
        }
        if refusedInARow == 1 {
            // Once per run of refusals, not per command: a flood must not flood the log too.
            logger.notice("rate limit: commands dropped", metadata: ["rate": "\(rate)"])
        }
        let burst = Self.format(policy.commandBurst)
        reply(.error(message: "rate limit: more than \(rate) commands per second (burst \(burst)); command dropped"))
        return false
    }

    /// The peer's groups (primary, supplementary, and from the group database), looked up once.
    private func groupsOfPeer() -> Set<UInt32> {
        if let peerGroups { return peerGroups }
        guard let peer else { return [] }
        let groups = UnixGroup.groups(ofProcess: peer.pid, uid: peer.uid, gid: peer.gid)
        peerGroups = groups
        return groups
    }

    private var peerUID: String { peer.map { "\($0.uid)" } ?? "?" }

    /// Reads nothing more, writes `message`, then closes the connection.
    ///
    /// A client that does not read would hold that last write, and so the connection, open for ever: it gets
    /// ``closeGrace`` seconds to take it, then the connection is closed anyway.
    private func closeAfter(_ message: ServerMessage, context: ChannelHandlerContext) {
        closing = true
        setReading(false, context: context)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(encode(message, context: context))).whenComplete { _ in
            channel.close(promise: nil)
        }
        context.eventLoop.scheduleTask(in: .milliseconds(Int64(Self.closeGrace * 1000))) {
            channel.close(promise: nil)
        }
    }

    /// Seconds a client being turned away has to read its last message.
    static let closeGrace = 2.0

    private static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? "\(Int(value))" : "\(value)"
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
            let policy = settings.policy
            if let refusal = policy.refusal(
                command: "tare", peer: peer, groups: groupsOfPeer(), daemonUID: settings.daemonUID)
            {
                errors &+= 1
                logger.notice(
                    "tare refused",
                    metadata: ["uid": "\(peerUID)", "pid": "\(peer.map { "\($0.pid)" } ?? "?")"])
                reply(.error(message: refusal))
                return
            }
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
        deliver(encode(message, context: context), kind: .reply)
    }

    private func encode(_ message: ServerMessage, context: ChannelHandlerContext) -> ByteBuffer {
        var buffer = context.channel.allocator.buffer(capacity: 256)
        buffer.writeString(message.jsonLine)
        buffer.writeInteger(UInt8(ascii: "\n"))
        return buffer
    }

    /// Closes the connection (at daemon shutdown).
    func close() {
        context?.close(promise: nil)
    }

    /// Writes `buffer` if the client is keeping up; otherwise drops it and counts it. Replies are written even
    /// then, up to ``maxPendingReplies``; a client that lets more pile up unread is closed.
    func deliver(_ buffer: ByteBuffer, kind: Kind) {
        guard let context, context.channel.isActive, registered else { return }
        if !context.channel.isWritable {
            if kind == .frame { dropped &+= 1 }
            guard kind == .reply else { return }
            pendingReplies += 1
            if pendingReplies > Self.maxPendingReplies {
                if !closing {
                    closing = true
                    logger.notice(
                        "client does not read its replies; closing", metadata: ["pending": "\(pendingReplies)"])
                    context.close(promise: nil)
                }
                return
            }
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
