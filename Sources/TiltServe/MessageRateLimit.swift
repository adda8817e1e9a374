/// A token bucket per WebSocket connection: on average `rate` messages a second, `burst` at once.
///
/// The daemon limits commands the same way (its `CommandLimiter`); a page that floods gets `error` answers, then is
/// closed with 1008 after ``refusedBeforeClose`` refusals.
struct MessageRateLimit {
    private let rate: Double
    private let burst: Double
    private let refusedBeforeClose: Int
    private var tokens: Double
    private var last: Double?
    private(set) var refused = 0

    init(_ limits: ServeConfiguration.Limits) {
        rate = limits.messagesPerSecond
        burst = limits.messageBurst
        refusedBeforeClose = limits.refusedBeforeClose
        tokens = burst
    }

    /// What to do with a message that arrived at monotonic time `now` (seconds).
    enum Verdict { case accept, refuse, close }

    mutating func admit(at now: Double) -> Verdict {
        if let last { tokens = min(burst, tokens + max(0, now - last) * rate) }
        last = now
        if tokens >= 1 {
            tokens -= 1
            return .accept
        }
        refused += 1
        return refused >= refusedBeforeClose ? .close : .refuse
    }
}
