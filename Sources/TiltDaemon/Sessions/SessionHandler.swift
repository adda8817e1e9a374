import Logging
import NIOCore
import TiltCore
import TiltWire

/// One client connection: turns its lines into commands and writes what the hub and the commands send back.
///
/// The handler is the NIO glue of a session; each decision lives in a part of its own, plain values it composes:
/// admission is the hub's client limit; ``CommandLimiter`` decides the command rate and the flood disconnect;
/// ``CommandAuthority`` decides shared commands (via ``ServicePolicy``); ``SessionFlow`` decides back-pressure and
/// half-close; ``CommandDispatcher`` maps a command to its answer. They are values, not further `ChannelHandler`s,
/// because they act on one another (a flood closes the session, a refusal counts as an error, a delivered poll may
/// end a half-closed one): in one handler that is a function call, and each part is tested without a channel.
/// Lines go out as ``WireLine``s, framed by `LineFrameEncoder` below in the pipeline.
///
/// Half-close: the connection allows remote half-closure (`ChannelOptions.allowRemoteHalfClosure`, set when the
/// handler is added). A client that shuts down its sending side (`shutdown(SHUT_WR)`, `socat -u`, a script that
/// writes its command and closes stdin) still has its last line answered, even without a trailing newline.
final class SessionHandler: ChannelInboundHandler {
    typealias InboundIn = LineEvent
    typealias OutboundOut = WireLine

    private let hub: Hub
    private let settings: DaemonSettings
    private let dispatcher: CommandDispatcher
    private var logger: Logger
    private var context: ChannelHandlerContext?
    /// The client's id at the hub; `nil` until registered, and for a client turned away.
    private var id: UInt64?
    private var errors: UInt64 = 0
    private var limiter: CommandLimiter
    private var authority = CommandAuthority()
    private var flow = SessionFlow()
    /// Raw samples (and the events behind them) waiting while the client does not read.
    private var backlog = RawBacklog()

    /// The line length this connection's decoder was made with (a reload applies to new connections).
    private let maxLineLength: Int

    /// Seconds a client being turned away has to read its last message.
    static let closeGrace = 2.0

    init(hub: Hub, settings: DaemonSettings, maxLineLength: Int, logger: Logger) {
        self.hub = hub
        self.settings = settings
        self.maxLineLength = maxLineLength
        self.logger = logger
        dispatcher = CommandDispatcher(hub: hub, settings: settings)
        limiter = CommandLimiter(policy: settings.policy)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        try? context.channel.syncOptions?.setOption(.allowRemoteHalfClosure, value: true)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        defer { context.fireChannelActive() }
        let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
        let limit = settings.policy.maxClients
        guard let id = hub.register(SessionSink(channel: context.channel, session: bound), limit: limit) else {
            logger.notice("client refused: the daemon is full", metadata: ["limit": "\(limit)"])
            closeAfter(
                .error(
                    message: "the daemon is full (limit \(limit) clients); try again later, or raise max_clients "
                        + "in the daemon's config"), context: context)
            return
        }
        self.id = id
        logger[metadataKey: "client"] = "\(id)"
        PeerCredentials.read(channel: context.channel) { credentials in
            let session = bound.value
            session.authority.peer = credentials
            var metadata: Logger.Metadata = [:]
            if let credentials {
                metadata = ["uid": "\(credentials.uid)", "gid": "\(credentials.gid)", "pid": "\(credentials.pid)"]
            }
            session.logger.info("client connected", metadata: metadata)
        }
        reply(hub.hello)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let id, let counts = hub.unregister(id: id) {
            logger.info("client disconnected", metadata: ["sent": "\(counts.sent)", "dropped": "\(counts.dropped)"])
        }
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !flow.closing, let id else { return }
        switch unwrapInboundIn(data) {
        case .overlong(let length):
            guard admit(context: context) else { return }
            fail("line too long (at least \(length) bytes; the limit is \(maxLineLength)); it was discarded")
        case .line(let line):
            let bytes = line.readableBytesView
            if bytes.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) { return }
            guard admit(context: context) else { return }
            do {
                run(try ClientCommand.decode(bytes), id: id)
            } catch {
                fail(error.message)
            }
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // The line decoder has passed on the last line (if any) before this event arrives.
        if let event = event as? ChannelEvent, event == .inputClosed {
            flow.endOfInput()
            logger.debug("client half-closed", metadata: ["owedFrames": "\(owedFrames)"])
            closeIfDone()
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if !context.channel.isWritable { setReading(false, context: context) }
        context.fireChannelReadComplete()
    }

    /// Stops reading while the client does not take what is written; starts again once it does, and writes what
    /// waits in the raw backlog first.
    func channelWritabilityChanged(context: ChannelHandlerContext) {
        drain(context: context)
        setReading(flow.shouldRead(writable: context.channel.isWritable), context: context)
        context.fireChannelWritabilityChanged()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        logger.debug("connection error: \(error)")
        context.close(promise: nil)
    }

    // MARK: Lines from the hub

    /// Writes a line the hub delivered: a frame (the hub has checked that the client keeps up) unless raw samples
    /// wait before it; a raw sample, a log's gap or an event at once, or behind those waiting (``RawBacklog``).
    func send(_ line: WireLine, kind: Delivery) {
        guard let context, context.channel.isActive, let id else { return }
        switch kind {
        case .frame(let answersPoll):
            if !backlog.isEmpty {
                // The frame would overtake its sample: it is dropped, as any frame a client is too slow for.
                hub.frameNotSent(id: id)
                return
            }
            context.writeAndFlush(wrapOutboundOut(line), promise: nil)
            if answersPoll { hub.pollAnswered(id: id) }
            closeIfDone()
        case .sample(let time):
            drain(context: context)
            if backlog.isEmpty && context.channel.isWritable {
                context.writeAndFlush(wrapOutboundOut(line), promise: nil)
            } else if backlog.offer(sample: line, time: time, capacity: rawCapacity) == .dropped {
                hub.rawSampleDropped(id: id)
            }
        case .gap, .event:
            drain(context: context)
            if backlog.isEmpty && context.channel.isWritable {
                context.writeAndFlush(wrapOutboundOut(line), promise: nil)
            } else {
                // Behind the samples waiting, in order, or until the client reads again: an event is rare and says
                // what no later frame does (a `sensor finished`), so it waits (``RawBacklog/maxQueuedEvents`` at most).
                _ = backlog.offer(line: line)
            }
        }
    }

    /// The raw samples a client may have waiting: `raw_queue_seconds` of them at the rate they arrive.
    private var rawCapacity: Int {
        let seconds = settings.policy.rawQueueSeconds
        return Int((seconds * hub.deliveredRate).rounded(.up))
    }

    /// Writes what waits in the backlog while the channel takes it.
    private func drain(context: ChannelHandlerContext) {
        guard !backlog.isEmpty else { return }
        var wrote = false
        while context.channel.isWritable, let line = backlog.next() {
            context.write(wrapOutboundOut(line), promise: nil)
            wrote = true
        }
        if wrote { context.flush() }
    }

    /// Closes the connection (at daemon shutdown).
    func close() {
        context?.close(promise: nil)
    }

    // MARK: Commands

    /// Whether the next command may run under the rate limit; refuses it (or disconnects a flooder) if not.
    private func admit(context: ChannelHandlerContext) -> Bool {
        let policy = settings.policy
        switch limiter.admit(policy: policy, at: monotonicSeconds()) {
        case .run:
            return true
        case .refuse(let message, let firstOfRun):
            errors &+= 1
            if firstOfRun {
                logger.notice(
                    "rate limit: commands dropped",
                    metadata: ["rate": "\(CommandLimiter.format(policy.commandsPerSecond))"])
            }
            reply(.error(message: message))
        case .disconnect(let message, let refused):
            errors &+= 1
            logger.notice(
                "client disconnected for flooding",
                metadata: [
                    "refused": "\(refused)", "rate": "\(CommandLimiter.format(policy.commandsPerSecond))",
                    "uid": "\(authority.uid)",
                ])
            closeAfter(.error(message: message), context: context)
        }
        return false
    }

    private func run(_ command: ClientCommand, id: UInt64) {
        switch dispatcher.dispatch(command, id: id, authority: &authority, errors: errors) {
        case .reply(let message):
            reply(message)
        case .none:
            break
        case .refused(let command, let message):
            errors &+= 1
            logger.notice("\(command) refused", metadata: ["uid": "\(authority.uid)", "pid": "\(authority.pid)"])
            reply(.error(message: message))
        case .tared(let reference, let hadAttitude):
            if hadAttitude { logger.info("tare", metadata: ["reference": "\(reference)"]) }
            reply(.tare(reference: reference))
        }
    }

    private func fail(_ message: String) {
        errors &+= 1
        logger.debug("bad line: \(message)")
        reply(.error(message: message))
    }

    // MARK: Writing and closing

    /// Writes an answer: always, even while the client does not read, up to ``SessionFlow/maxPendingReplies``; a
    /// client that lets more pile up unread is closed.
    private func reply(_ message: ServerMessage) {
        guard let context, context.channel.isActive, id != nil else { return }
        switch flow.reply(writable: context.channel.isWritable) {
        case .write:
            context.writeAndFlush(wrapOutboundOut(WireLine(message)), promise: nil)
        case .closeSlowReader(let pending):
            logger.notice("client does not read its replies; closing", metadata: ["pending": "\(pending)"])
            context.close(promise: nil)
        case .drop:
            break
        }
    }

    /// Whether this client expects frames (it watches, or a `poll` waits or is being answered).
    private var owedFrames: Bool { id.map(hub.expectsFrames) ?? false }

    /// After a half-close, ends the session once nothing more is due to the client (what was written goes first).
    private func closeIfDone() {
        guard flow.isDone(owedFrames: owedFrames), let context else { return }
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.nothing)).whenComplete { _ in
            channel.close(promise: nil)
        }
    }

    private func setReading(_ on: Bool, context: ChannelHandlerContext) {
        guard let options = context.channel.syncOptions, (try? options.getOption(.autoRead)) != on else { return }
        try? options.setOption(.autoRead, value: on)
    }

    /// Reads nothing more, writes `message`, then closes the connection.
    ///
    /// A client that does not read would hold that last write, and so the connection, open for ever: it gets
    /// ``closeGrace`` seconds to take it, then the connection is closed anyway.
    private func closeAfter(_ message: ServerMessage, context: ChannelHandlerContext) {
        flow.close()
        setReading(false, context: context)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(WireLine(message))).whenComplete { _ in
            channel.close(promise: nil)
        }
        context.eventLoop.scheduleTask(in: .milliseconds(Int64(Self.closeGrace * 1000))) {
            channel.close(promise: nil)
        }
    }
}
