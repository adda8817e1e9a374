import FoundationEssentials
import Logging
import NIOCore
import NIOPosix
import TiltCore
import TiltWire

/// `/motion`: one tiltd connection per page, relaying lines both ways, one line per text message.
///
/// When tiltd is not there (or goes away) the page gets an `error` saying so and the relay tries again with backoff
/// (0.25 s doubling to 4 s); after a reconnect the page's last `watch` is sent again, so its stream resumes.
///
/// Everything that changes lives in ``State``, bound to the page connection's event loop, which the tiltd connection
/// shares (its bootstrap runs on that loop and each completion hops to it): `NIOLoopBoundBox` checks that every touch
/// is on that loop, as the daemon's `SessionHandler` does.
final class MotionRelay: WebSocketEndpoint, Sendable {
    private let socketPath: String
    private let logger: Logger
    private let state: NIOLoopBoundBox<State>

    private struct State {
        weak var session: WebSocketSession?
        var daemon: (any Channel)?
        var lastWatch: String?
        var backoff = Backoff(initial: .milliseconds(250), maximum: .seconds(4))
        var retry: Scheduled<Void>?
        var finished = false
        var toldMissing = false
        /// Whether a connection attempt is under way; commands sent meanwhile wait in ``pending``.
        var connecting = false
        /// Commands a page sent while the first connection was being made (a page sends `watch` as soon as it
        /// opens).
        var pending: [String] = []
    }

    /// A relay for a page whose connection runs on `eventLoop`; made on that loop.
    init(socketPath: String, logger: Logger, eventLoop: any EventLoop) {
        self.socketPath = socketPath
        self.logger = logger
        state = NIOLoopBoundBox(State(), eventLoop: eventLoop)
    }

    func opened(_ session: WebSocketSession) {
        state.value.session = session
        session.send(text: Self.clockLine())
        connect()
    }

    /// `{"class":"clock","mono":…,"wall":…}`: this machine's `CLOCK_MONOTONIC` (the clock of a frame's `mono`) and
    /// wall clock, read together, so a page puts frames on its own clock (tilt.js's `clockOffset`).
    static func clockLine() -> String {
        var json = JSONWriter()
        json.field("class", "clock")
        json.field("mono", monotonicSeconds())
        json.field("wall", wallClockSeconds())
        return json.finish()
    }

    func received(_ text: String, from session: WebSocketSession) {
        if case .watch = try? ClientCommand.decode(Array(text.utf8)) {
            state.value.lastWatch = text
        }
        guard let daemon = state.value.daemon else {
            if state.value.connecting && !state.value.toldMissing && state.value.pending.count < 16 {
                state.value.pending.append(text)
            } else {
                session.sendError(notRunning)
            }
            return
        }
        // One line to tiltd: a newline inside the message would make it two commands.
        let line = text.replacing("\n", with: " ").replacing("\r", with: " ")
        daemon.writeAndFlush(daemon.allocator.buffer(string: line + "\n"), promise: nil)
    }

    func closed() {
        state.value.finished = true
        state.value.retry?.cancel()
        state.value.daemon?.close(promise: nil)
        state.value.daemon = nil
    }

    private var notRunning: String {
        "tiltd is not running at \(socketPath); start it with `tiltd` (or `systemctl start tiltd.socket`)"
    }

    private func connect() {
        guard let loop = state.value.session?.eventLoop, !state.value.finished else { return }
        state.value.connecting = true
        ClientBootstrap(group: loop)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandlers([
                        ByteToMessageHandler(LineFrameDecoder(maxLength: 1 << 20)),
                        DaemonLineHandler(relay: self),
                    ])
                }
            }
            .connect(unixDomainSocketPath: socketPath)
            .hop(to: loop)
            .whenComplete { [self] result in
                state.value.connecting = false
                let waiting = state.value.pending
                state.value.pending = []
                switch result {
                case .success(let channel):
                    guard !state.value.finished else {
                        channel.close(promise: nil)
                        return
                    }
                    state.value.daemon = channel
                    state.value.backoff.reset()
                    state.value.toldMissing = false
                    guard let session = state.value.session else { return }
                    if waiting.isEmpty, let lastWatch = state.value.lastWatch { received(lastWatch, from: session) }
                    for text in waiting { received(text, from: session) }
                case .failure(let error):
                    logger.debug("tiltd at \(socketPath): \(error)")
                    if !state.value.toldMissing { state.value.session?.sendError(notRunning) }
                    state.value.toldMissing = true
                    scheduleRetry(on: loop)
                }
            }
    }

    private func scheduleRetry(on loop: any EventLoop) {
        guard !state.value.finished else { return }
        let delay = state.value.backoff.next()
        state.value.retry = loop.scheduleTask(in: .nanoseconds(Int64(delay.inSeconds * 1e9))) { [self] in connect() }
    }

    /// A line from tiltd: to the page as it is. Frames (`attitude`, raw `sample`) are dropped while the page does not
    /// read (its connection's buffer is over NIO's high-water mark), as tiltd drops them for a slow client.
    /// The bytes go through as they came, with no `String` in between.
    fileprivate func daemonLine(_ line: ByteBuffer) {
        guard let session = state.value.session else { return }
        let bytes = line.readableBytesView
        let isFrame = bytes.starts(with: Self.attitudePrefix) || bytes.starts(with: Self.samplePrefix)
        guard session.isWritable || !isFrame else { return }
        session.send(textBuffer: line)
    }

    private static let attitudePrefix = MessageClass.attitude.linePrefix
    private static let samplePrefix = MessageClass.sample.linePrefix

    /// tiltd closed the connection: tell the page and try again.
    fileprivate func daemonClosed() {
        state.value.daemon = nil
        guard !state.value.finished, let session = state.value.session, let loop = session.eventLoop else { return }
        session.sendError(notRunning)
        state.value.toldMissing = true
        scheduleRetry(on: loop)
    }
}

/// Hands tiltd's lines to the relay, on the relay's event loop (the same one).
private final class DaemonLineHandler: ChannelInboundHandler {
    typealias InboundIn = LineEvent
    private let relay: MotionRelay

    init(relay: MotionRelay) { self.relay = relay }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .line(let buffer) = unwrapInboundIn(data) else { return }
        relay.daemonLine(buffer)
    }

    func channelInactive(context: ChannelHandlerContext) {
        relay.daemonClosed()
        context.fireChannelInactive()
    }
}
