/// Decides when a watcher at `rate` Hz is due its next frame, with no drift and no bursts.
///
/// Frames arrive at the sensor's rate; a watcher gets the first one at or after each due time. Due times advance by
/// one period per frame sent, so the long-run rate is exact; after a gap longer than a period the schedule restarts
/// from now instead of sending a burst to catch up.
struct RateSchedule: Sendable, Equatable {
    /// Seconds between frames.
    private(set) var period: Double
    private var nextDue: Double?

    init(rate: Double) {
        period = 1 / max(rate, 1e-3)
    }

    mutating func setRate(_ rate: Double) {
        period = 1 / max(rate, 1e-3)
        nextDue = nil
    }

    /// Whether a frame at monotonic time `now` (seconds) should go out; if so, advances the schedule.
    mutating func take(at now: Double) -> Bool {
        guard let due = nextDue else {
            nextDue = now + period
            return true
        }
        // A small tolerance keeps a rate that divides the sensor rate from slipping a whole sample on jitter.
        guard now >= due - period * 0.05 else { return false }
        let next = due + period
        nextDue = next < now ? now + period : next
        return true
    }
}
