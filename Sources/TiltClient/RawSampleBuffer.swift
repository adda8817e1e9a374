import TiltCore
import TiltWire

/// What a raw-sample subscription has gathered: the greeting, the samples since the last restart, and why it
/// stopped, if it did.
///
/// A value type fed one ``TiltSubscriber/Event`` at a time, so the rules (which events end the stream, when a
/// failure is reported) are tested without a daemon; ``RawSampleFeed`` keeps one behind a lock.
public struct RawSampleBuffer: Sendable {
    /// The daemon's greeting, once connected.
    public private(set) var hello: ServerMessage.Hello?
    /// The samples since the last ``restart()``, in arrival order.
    public private(set) var samples: [MotionSample] = []
    /// Why the stream stopped or went wrong, if it did.
    public private(set) var failure: TiltClientError?
    /// Whether the subscription is over (the daemon went away).
    public private(set) var ended = false

    public init() {}

    /// Takes one subscriber event.
    ///
    /// - Returns: `false` once the stream is over and no more events need to be read.
    public mutating func take(_ event: TiltSubscriber.Event) -> Bool {
        switch event {
        case .connected(let greeting):
            hello = greeting
        case .message(.sample(let sample)):
            samples.append(sample)
        case .message(.sensor(let e)):
            if e.state == .finished || e.state == .lost {
                failure = TiltClientError(.sensorStopped, "the sensor is \(e.state): \(e.reason)")
            }
        case .disconnected(let reason):
            failure = failure ?? TiltClientError(.connectionClosed, "tiltd went away: \(reason)")
            ended = true
            return false
        default:
            break
        }
        return true
    }

    /// Marks the end of the event stream (the subscriber was closed).
    public mutating func end() {
        ended = true
    }

    /// Forgets the samples so far; a failure is forgotten too unless the stream has ended.
    public mutating func restart() {
        samples.removeAll(keepingCapacity: true)
        if !ended { failure = nil }
    }

    /// The samples so far.
    ///
    /// - Throws: The ``failure``, when there is one and there is nothing to show for it: no samples, or the stream
    ///   has ended. (A sensor that stops after samples arrived still gives those samples.)
    public func snapshot() throws(TiltClientError) -> [MotionSample] {
        if let failure, samples.isEmpty || ended { throw failure }
        return samples
    }

    /// Seconds of sensor time the samples cover (first to last).
    public var span: Double { Self.span(of: samples) }

    /// Seconds of sensor time `samples` cover, first to last (0 for fewer than two).
    public static func span(of samples: [MotionSample]) -> Double {
        guard let first = samples.first, let last = samples.last else { return 0 }
        return last.time - first.time
    }
}
