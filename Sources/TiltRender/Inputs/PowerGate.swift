import TiltCore
import TiltEffects

/// Applies a ``PowerPolicy`` to a render loop: follows the power and window state, tells the daemon what motion to
/// send, says when a frame is due, and counts what was drawn in each mode.
///
/// Pure bookkeeping (no GL, no clock of its own): the loop passes the time in, so it can be tested directly.
package struct PowerGate: Sendable {
    /// Frames drawn, frames skipped and seconds spent, per mode.
    package struct Stats: Sendable, Hashable {
        /// One mode's share.
        package struct Entry: Sendable, Hashable {
            /// Frames drawn.
            package var drawn = 0
            /// Frames that were due but not drawn because nothing the effect reads had changed.
            package var skipped = 0
            /// Seconds spent in the mode.
            package var seconds = 0.0
            /// Times the mode was entered.
            package var entered = 0
        }

        /// Per mode.
        package var modes: [PowerMode: Entry] = [:]

        /// Frames drawn in all modes.
        package var drawn: Int { modes.values.reduce(0) { $0 + $1.drawn } }
        /// Frames skipped in all modes.
        package var skipped: Int { modes.values.reduce(0) { $0 + $1.skipped } }
    }

    /// The policy in force.
    package let policy: PowerPolicy
    /// The current decision; `nil` before the first ``update(power:window:now:)``.
    package private(set) var decision: PowerPolicy.Decision?
    /// What was done so far.
    package private(set) var stats = Stats()
    /// Whether the still frame of the current still period has been drawn.
    package private(set) var stillShown = false
    private var modeSince: Double = 0
    private var lastDraw: Double?

    /// A gate for `policy`.
    package init(policy: PowerPolicy) {
        self.policy = policy
    }

    /// Follows the latest power state and window visibility. Returns the new decision when the mode changed (the
    /// loop then changes what it asks of the daemon), else `nil`.
    package mutating func update(power: PowerState?, window: WindowVisibility, now: Double) -> PowerPolicy.Decision? {
        let next = policy.decide(power: power, window: window)
        guard next.mode != decision?.mode else { return nil }
        if let current = decision { stats.modes[current.mode, default: .init()].seconds += now - modeSince }
        decision = next
        modeSince = now
        stillShown = false
        lastDraw = nil
        stats.modes[next.mode, default: .init()].entered += 1
        return next
    }

    /// Forces the still frame to be drawn again (the window was exposed or resized).
    package mutating func invalidate() {
        stillShown = false
    }

    /// Seconds until the next frame is due (0: now); `nil`: no frame is due until the power or window state changes.
    package func delay(now: Double, displayRate: Double?) -> Double? {
        guard let decision else { return 0 }
        switch decision.mode {
        case .hidden: return nil
        case .still: return stillShown ? nil : 0
        case .full, .capped:
            guard let rate = decision.frameRate ?? displayRate, rate > 0, let lastDraw else { return 0 }
            return max(0, lastDraw + 1 / rate - now)
        }
    }

    /// Records a frame drawn at `now`.
    package mutating func drew(now: Double) {
        lastDraw = now
        if decision?.mode == .still { stillShown = true }
        stats.modes[decision?.mode ?? .full, default: .init()].drawn += 1
    }

    /// Records a frame that was due at `now` but skipped because nothing changed.
    package mutating func skipped(now: Double) {
        lastDraw = now
        stats.modes[decision?.mode ?? .full, default: .init()].skipped += 1
    }

    /// The statistics with the time of the current mode counted up to `now`.
    package func finalStats(now: Double) -> Stats {
        var s = stats
        if let decision { s.modes[decision.mode, default: .init()].seconds += now - modeSince }
        return s
    }
}
