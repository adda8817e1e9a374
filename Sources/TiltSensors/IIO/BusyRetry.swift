import TiltCore

/// When to try a busy IIO buffer again: after ``initial``, doubling up to ``maximum`` while it stays busy.
struct BusyRetry {
    let initial: Double
    let maximum: Double
    private(set) var delay: Double
    private(set) var retryAt: Double

    init(initial: Duration, maximum: Duration, now: Double = monotonicSeconds()) {
        self.initial = initial.inSeconds
        self.maximum = max(maximum.inSeconds, self.initial)
        delay = self.initial
        retryAt = now + delay
    }

    /// Whether it is time to try.
    func isDue(at now: Double) -> Bool { now >= retryAt }
    var isDue: Bool { isDue(at: monotonicSeconds()) }

    /// The buffer was still busy: wait twice as long (at most ``maximum``) from `now`.
    mutating func back(now: Double = monotonicSeconds()) {
        delay = min(delay * 2, maximum)
        retryAt = now + delay
    }
}
