import NIOCore
import NIOPosix
import Synchronization
import TiltCore
import TiltWire

/// An async subscriber to the tilt daemon that reconnects by itself.
///
/// ```swift
/// let subscriber = TiltSubscriber(configuration: .init(rate: 60))
/// for await event in subscriber.events() {
///     if case .message(.attitude(let frame)) = event { draw(frame.tilt) }
/// }
/// ```
/// The subscriber connects to the daemon's socket, says `watch` at the configured rate, and turns each line into an
/// ``Event``. When the daemon goes away it reports ``Event/disconnected(reason:)`` and tries again with exponential
/// backoff; after a reconnect it watches again at the current rate. Events that the consumer does not take in time
/// are dropped oldest first, so a slow consumer always sees recent frames; a `lossless` subscriber keeps them all.
public final class TiltSubscriber: Sendable {
    /// Subscriber settings.
    public struct Configuration: Sendable, Hashable {
        /// The daemon's socket; `nil` resolves as the daemon does (`TILTD_SOCKET`, `$XDG_RUNTIME_DIR/tiltd.sock`).
        public var socketPath: String?
        /// Frames per second to ask for.
        public var rate: Double
        /// Watch from the start.
        public var watch: Bool
        /// Also receive raw samples.
        public var raw: Bool
        /// Reconnect after the daemon goes away; `false` ends the event stream instead.
        public var reconnect: Bool
        /// The wait between connection attempts: from 0.1 s, doubling up to 5 s.
        public var backoff: Backoff
        /// Events kept for a slow consumer before the oldest are dropped (unless ``lossless``).
        public var bufferSize: Int
        /// Keep every event however far the consumer falls behind (a recording of raw samples): nothing is dropped
        /// here, and what the daemon could not send is told by its `gap` messages. The consumer must keep up on
        /// average, or the events it has not taken pile up in memory.
        public var lossless: Bool
        /// The rotation the display gives its picture: frames come in the picture's axes (``ScreenRotation``).
        public var screenRotation: ScreenRotation
        /// `false` for the 6D (game rotation) attitude, `true` for 9D, `nil` for the daemon's default.
        public var magnetometer: Bool?
        /// Seconds ahead of each sample to ask frames predicted for (`watch`'s `predict`, 0 … 0.1); 0 is none.
        public var predict: Double = 0

        public init(
            socketPath: String? = nil, rate: Double = WireProtocol.defaultRate, watch: Bool = true, raw: Bool = false,
            reconnect: Bool = true, backoff: Backoff = Backoff(initial: .milliseconds(100), maximum: .seconds(5)),
            bufferSize: Int = 64, screenRotation: ScreenRotation = .normal, magnetometer: Bool? = nil,
            lossless: Bool = false
        ) {
            self.lossless = lossless
            self.screenRotation = screenRotation
            self.magnetometer = magnetometer
            self.socketPath = socketPath
            self.rate = rate
            self.watch = watch
            self.raw = raw
            self.reconnect = reconnect
            self.backoff = backoff
            self.bufferSize = bufferSize
        }
    }

    /// What the subscriber reports: the connection's changes, and the daemon's messages as they are.
    ///
    /// A message the protocol gains arrives as ``message(_:)`` with nothing here to change.
    public enum Event: Sendable, Equatable {
        /// Connected; the daemon's greeting (its `hello`, which is not also reported as a ``message(_:)``).
        case connected(ServerMessage.Hello)
        /// A message from the daemon: a frame (``ServerMessage/attitude(_:)``), a raw sample, an event, an answer,
        /// or a complaint about a line we sent (``ServerMessage/error(message:)``).
        case message(ServerMessage)
        /// The connection is gone (or could not be made); the subscriber retries if configured to.
        case disconnected(reason: String)
    }

    private struct WatchState: Sendable {
        var watching: Bool
        var rate: Double
        var raw: Bool
        var screenRotation: ScreenRotation
        var magnetometer: Bool?
        var predict: Double
        var command: ClientCommand {
            .watch(
                enable: watching, rate: rate, raw: raw, screenRotation: screenRotation, magnetometer: magnetometer,
                predict: predict)
        }
    }

    public let configuration: Configuration
    /// The socket path in use.
    public let socketPath: String
    private let watch: Mutex<WatchState>
    /// Where commands for the current connection go; `nil` while disconnected. Each connection gets a stream of
    /// its own: cancelling the task that iterates an `AsyncStream` ends that stream for good, so one stream shared
    /// across reconnections went deaf after the first disconnection.
    private let outbox = Mutex<AsyncStream<ClientCommand>.Continuation?>(nil)
    private let task = Mutex<Task<Void, Never>?>(nil)

    /// The socket path a subscriber uses when none is configured.
    public static var defaultSocketPath: String { SocketPath.resolveForClient(nil) }

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
        socketPath = SocketPath.resolveForClient(configuration.socketPath)
        watch = Mutex(
            WatchState(
                watching: configuration.watch, rate: configuration.rate, raw: configuration.raw,
                screenRotation: configuration.screenRotation, magnetometer: configuration.magnetometer,
                predict: configuration.predict))
    }

    /// Convenience: a subscriber on `socketPath` watching at `rate`.
    public convenience init(socketPath: String? = nil, rate: Double) {
        self.init(configuration: .init(socketPath: socketPath, rate: rate))
    }

    deinit {
        task.withLock { $0?.cancel() }
    }

    /// Starts the connection and returns its events. Call once; the stream ends after ``close()``, or at the first
    /// disconnection when `reconnect` is off.
    public func events() -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: Event.self,
            bufferingPolicy: configuration.lossless ? .unbounded : .bufferingNewest(configuration.bufferSize))
        let t = Task { [self] in
            await self.connectionLoop(continuation)
            continuation.finish()
        }
        continuation.onTermination = { _ in t.cancel() }
        task.withLock { $0 = t }
        return stream
    }

    /// Changes the frame rate (and keeps watching).
    public func setRate(_ rate: Double) {
        let command = watch.withLock { w in
            w.rate = rate
            w.watching = true
            return w.command
        }
        send(command)
    }

    /// Changes the picture axes the frames come in (the display turned), and sends the new `watch` if watching.
    public func setScreenRotation(_ rotation: ScreenRotation) {
        let command = watch.withLock { w -> ClientCommand? in
            guard w.screenRotation != rotation else { return nil }
            w.screenRotation = rotation
            return w.watching ? w.command : nil
        }
        if let command { send(command) }
    }

    /// Changes how far ahead of their samples frames are predicted (seconds, 0 … 0.1; 0 is none), and sends the new
    /// `watch` if watching.
    public func setPredict(_ seconds: Double) {
        let value = min(max(seconds.isFinite ? seconds : 0, 0), WireProtocol.maxPredict)
        let command = watch.withLock { w -> ClientCommand? in
            guard w.predict != value else { return nil }
            w.predict = value
            return w.watching ? w.command : nil
        }
        if let command { send(command) }
    }

    /// Starts or stops frames.
    public func setWatching(_ on: Bool) {
        let command = watch.withLock { w in
            w.watching = on
            return w.command
        }
        send(command)
    }

    /// Sends any command (e.g. `.tare`, `.status`, `.poll`); answers arrive as events.
    ///
    /// While disconnected, commands are dropped, except that the watch state (``setRate(_:)``,
    /// ``setWatching(_:)``) is kept and sent again on every connection.
    public func send(_ command: ClientCommand) {
        _ = outbox.withLock { $0 }?.yield(command)
    }

    /// Disconnects and ends the event stream.
    public func close() {
        task.withLock { $0?.cancel() }
        outbox.withLock { $0 }?.finish()
    }

    private func connectionLoop(_ continuation: AsyncStream<Event>.Continuation) async {
        var backoff = configuration.backoff
        while !Task.isCancelled {
            let reason: String
            do {
                let channel = try await TiltConnection.open(socketPath: socketPath)
                backoff.reset()
                try await serve(channel, continuation)
                reason = "the daemon closed the connection"
            } catch is CancellationError {
                return
            } catch {
                reason = TiltClientError.connection(to: socketPath, failedWith: error).message
            }
            if Task.isCancelled { return }
            continuation.yield(.disconnected(reason: reason))
            guard configuration.reconnect else { return }
            try? await Task.sleep(for: backoff.next())
        }
    }

    private func serve(_ channel: TiltConnection.Channel, _ continuation: AsyncStream<Event>.Continuation) async throws
    {
        let (commands, commandContinuation) = AsyncStream.makeStream(of: ClientCommand.self)
        outbox.withLock { $0 = commandContinuation }
        defer {
            outbox.withLock { $0 = nil }
            commandContinuation.finish()
        }
        try await channel.executeThenClose { inbound, outbound in
            let first = watch.withLock { $0 }
            if first.watching { try await TiltConnection.write(first.command, to: outbound) }
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await command in commands {
                        try await TiltConnection.write(command, to: outbound)
                    }
                }
                group.addTask {
                    for try await event in inbound {
                        guard case .line(let line) = event else { continue }
                        guard let message = try? ServerMessage.decode(line.readableBytesView) else { continue }
                        continuation.yield(Self.event(for: message))
                    }
                }
                // Whichever ends first (the daemon hung up, or close()) ends the connection.
                try await group.next()
                group.cancelAll()
            }
        }
    }

    private static func event(for message: ServerMessage) -> Event {
        if case .hello(let greeting) = message { return .connected(greeting) }
        return .message(message)
    }
}
