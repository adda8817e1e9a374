import TiltCore
import TiltSensors

/// When to try a busy IIO buffer again: after the backoff's first wait, doubling up to its longest while it stays
/// busy.
struct BusyRetry {
    private var backoff: Backoff
    /// The wait before the next try, s.
    private(set) var delay: Double
    private(set) var retryAt: Double

    init(_ backoff: Backoff, now: Double = monotonicSeconds()) {
        self.backoff = backoff
        self.backoff.reset()
        delay = self.backoff.next().inSeconds
        retryAt = now + delay
    }

    /// Whether it is time to try.
    func isDue(at now: Double) -> Bool { now >= retryAt }
    var isDue: Bool { isDue(at: monotonicSeconds()) }

    /// The buffer was still busy: wait twice as long (at most the backoff's longest) from `now`.
    mutating func back(now: Double = monotonicSeconds()) {
        delay = backoff.next().inSeconds
        retryAt = now + delay
    }
}
