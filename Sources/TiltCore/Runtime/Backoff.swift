/// A wait that doubles each time it is taken, from ``initial`` up to ``maximum``, and starts over after a success:
/// how tilt tries again at something that is not there yet (a lost sensor, a busy buffer, a daemon that is not
/// running).
///
/// ```swift
/// var backoff = Backoff(initial: .milliseconds(100), maximum: .seconds(2))
/// while !connected {
///     try await Task.sleep(for: backoff.next())   // 0.1 s, 0.2 s, 0.4 s, … 2 s, 2 s
/// }
/// backoff.reset()
/// ```
public struct Backoff: Sendable, Hashable {
    /// The first wait.
    public let initial: Duration
    /// The longest wait (never shorter than ``initial``).
    public let maximum: Duration
    /// The wait ``next()`` returns next.
    public private(set) var current: Duration

    /// Waits from `initial`, doubling up to `maximum`.
    public init(initial: Duration, maximum: Duration) {
        self.initial = initial
        self.maximum = max(maximum, initial)
        current = initial
    }

    /// The wait to take now; the one after is twice as long, at most ``maximum``.
    public mutating func next() -> Duration {
        defer { current = min(current * 2, maximum) }
        return current
    }

    /// Starts over at ``initial`` (after a success).
    public mutating func reset() { current = initial }
}
