import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A moment on the monotonic clock (`ContinuousClock`, CLOCK_MONOTONIC), some seconds from now, that a test waits up
/// to. Unlike a `Date`, it neither jumps nor stops when the wall clock is set.
public struct Deadline: Sendable {
    private let end: ContinuousClock.Instant

    /// `seconds` from now.
    public init(seconds: Double) {
        end = .now + .nanoseconds(Int64((max(0, seconds) * 1e9).rounded()))
    }

    /// Whether the moment has come.
    public var hasPassed: Bool { ContinuousClock.now >= end }

    /// The seconds left until it, 0 once it has passed.
    public var remaining: Double {
        let left = ContinuousClock.now.duration(to: end).components
        return max(0, Double(left.seconds) + Double(left.attoseconds) * 1e-18)
    }
}

/// Polls `condition` every `interval` seconds until it holds or `timeout` seconds pass on the monotonic clock; returns
/// whether it held. It is asked once more when the time is up, so a condition that comes true during the last wait
/// counts. This is how a test waits for what the code guarantees will happen, at whatever speed the machine runs.
public func eventually(timeout: Double = 10, every interval: Double = 0.02, _ condition: () throws -> Bool) rethrows
    -> Bool
{
    let deadline = Deadline(seconds: timeout)
    while true {
        if try condition() { return true }
        if deadline.hasPassed { return false }
        usleep(UInt32(max(0, min(interval, deadline.remaining)) * 1e6))
    }
}

/// ``eventually(timeout:every:_:)`` for async tests: it waits with `Task.sleep`, blocking no thread.
public func eventually(
    timeout: Double = 10, every interval: Double = 0.02, _ condition: () async throws -> Bool
) async rethrows -> Bool {
    let deadline = Deadline(seconds: timeout)
    while true {
        if try await condition() { return true }
        if deadline.hasPassed { return false }
        try? await Task.sleep(for: .milliseconds(Int64(max(0, min(interval, deadline.remaining)) * 1000)))
    }
}
