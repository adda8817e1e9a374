import Synchronization
import TiltCore
import TiltWire

/// The daemon's raw samples, gathered in the background for a command that needs seconds of them at a time
/// (`tilt calibrate`).
///
/// ```swift
/// let feed = try await RawSampleFeed.start(socketPath: nil)
/// feed.restart()
/// let samples = try await feed.collect(seconds: 10) { span, count in showProgress(span, count) }
/// ```
/// It subscribes with `raw` and without reconnecting: a calibration wants one unbroken stretch from one sensor.
public final class RawSampleFeed: Sendable {
    /// The daemon's greeting.
    public let hello: ServerMessage.Hello
    /// The socket the samples come from.
    public let socketPath: String

    private final class Shared: Sendable {
        let buffer = Mutex(RawSampleBuffer())
    }

    private let shared: Shared
    private let subscriber: TiltSubscriber
    private let consumer: Task<Void, Never>

    private init(
        hello: ServerMessage.Hello, socketPath: String, shared: Shared, subscriber: TiltSubscriber,
        consumer: Task<Void, Never>
    ) {
        self.hello = hello
        self.socketPath = socketPath
        self.shared = shared
        self.subscriber = subscriber
        self.consumer = consumer
    }

    /// Subscribes to the raw samples and waits (`greetingTimeout` seconds at most) for the daemon's greeting.
    ///
    /// - Parameter socketPath: The `--socket` the user gave, if any.
    /// - Throws: ``TiltClientError`` saying that tiltd could not be watched, and why.
    public static func start(socketPath: String?, greetingTimeout: Double = 5) async throws -> RawSampleFeed {
        let subscriber = TiltSubscriber(
            configuration: .init(socketPath: socketPath, rate: 1, raw: true, reconnect: false, bufferSize: 8192))
        let events = subscriber.events()
        let shared = Shared()
        let consumer = Task {
            for await event in events {
                guard shared.buffer.withLock({ $0.take(event) }) else { return }
            }
            shared.buffer.withLock { $0.end() }
        }
        let deadline = ContinuousClock.now + .seconds(greetingTimeout)
        while true {
            let (hello, failure, ended) = shared.buffer.withLock { ($0.hello, $0.failure, $0.ended) }
            if let hello {
                return RawSampleFeed(
                    hello: hello, socketPath: subscriber.socketPath, shared: shared, subscriber: subscriber,
                    consumer: consumer)
            }
            if ended || ContinuousClock.now > deadline {
                consumer.cancel()
                subscriber.close()
                let reason = failure?.message ?? "no greeting within \(Int(greetingTimeout)) s"
                throw TiltClientError(failure?.kind ?? .timeout, "cannot watch tiltd: \(reason)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    deinit {
        consumer.cancel()
        subscriber.close()
    }

    /// Forgets what was collected so far; the next ``collect(seconds:stallTimeout:progress:)`` starts now.
    public func restart() {
        shared.buffer.withLock { $0.restart() }
    }

    /// The samples collected since the last ``restart()``.
    ///
    /// - Throws: ``TiltClientError`` when the sensor stopped or the daemon went away.
    public func snapshot() throws(TiltClientError) -> [MotionSample] {
        try shared.buffer.withLock { buffer throws(TiltClientError) in try buffer.snapshot() }
    }

    /// Waits until the samples since the last ``restart()`` span `seconds` of sensor time, calling `progress`
    /// about five times a second with the seconds covered so far and the number of samples.
    ///
    /// - Throws: ``TiltClientError``: `.timeout` when the daemon sends nothing for `stallTimeout` seconds, or the
    ///   failure that ended the stream.
    public func collect(seconds: Double, stallTimeout: Double = 10, progress: (Double, Int) -> Void) async throws
        -> [MotionSample]
    {
        var lastCount = 0
        var lastChange = ContinuousClock.now
        while true {
            let samples = try snapshot()
            let span = RawSampleBuffer.span(of: samples)
            progress(span, samples.count)
            if span >= seconds { return samples }
            if samples.count != lastCount {
                lastCount = samples.count
                lastChange = .now
            } else if ContinuousClock.now - lastChange > .seconds(stallTimeout) {
                throw TiltClientError(
                    .timeout, "tiltd sent no samples for \(Int(stallTimeout)) s; is the sensor running? (tilt status)")
            }
            try await Task.sleep(for: .milliseconds(200))
        }
    }
}
