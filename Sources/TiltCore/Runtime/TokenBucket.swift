/// A token bucket: on average `rate` events per second, with up to `burst` at once after a quiet spell.
///
/// The daemon limits commands with it (`CommandLimiter`), `tiltfx serve` the messages of each WebSocket.
public struct TokenBucket: Sendable, Equatable {
    public private(set) var rate: Double
    public private(set) var burst: Double
    private var tokens: Double
    private var last: Double?

    /// A full bucket.
    public init(rate: Double, burst: Double) {
        self.rate = rate
        self.burst = burst
        tokens = burst
    }

    /// Changes the rate and burst, keeping the tokens there are (capped at the new burst).
    public mutating func configure(rate: Double, burst: Double) {
        guard rate != self.rate || burst != self.burst else { return }
        // A bucket that had no room (the limit was off) starts full, as a new one does.
        tokens = self.burst <= 0 ? burst : min(tokens, burst)
        self.rate = rate
        self.burst = burst
    }

    /// Takes one token at monotonic time `now` (seconds) if there is one.
    public mutating func take(at now: Double) -> Bool {
        if let last { tokens = min(burst, tokens + max(0, now - last) * rate) }
        last = now
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}
