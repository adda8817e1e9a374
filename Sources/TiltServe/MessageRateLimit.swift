import TiltCore

/// A token bucket per WebSocket connection: on average `rate` messages a second, `burst` at once.
///
/// The daemon limits commands with the same ``TokenBucket`` (its `CommandLimiter`); a page that floods gets `error`
/// answers, then is closed with 1008 after ``refusedBeforeClose`` refusals.
struct MessageRateLimit {
    private var bucket: TokenBucket
    private let refusedBeforeClose: Int
    private(set) var refused = 0

    init(_ limits: ServeConfiguration.Limits) {
        bucket = TokenBucket(rate: limits.messagesPerSecond, burst: limits.messageBurst)
        refusedBeforeClose = limits.refusedBeforeClose
    }

    /// What to do with a message that arrived at monotonic time `now` (seconds).
    enum Verdict { case accept, refuse, close }

    mutating func admit(at now: Double) -> Verdict {
        if bucket.take(at: now) { return .accept }
        refused += 1
        return refused >= refusedBeforeClose ? .close : .refuse
    }
}
