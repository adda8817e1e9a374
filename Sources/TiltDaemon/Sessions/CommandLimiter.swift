import TiltCore

/// The command-rate part of a session: a token bucket (`commands_per_second`, burst twice that) and the flood rule.
///
/// A command over the rate is refused with an `error`; a client that keeps sending past ``ServicePolicy/floodLimit``
/// refusals in a row is disconnected. A plain value, so the rule is tested without a socket; the session acts on
/// its verdicts.
struct CommandLimiter: Sendable {
    /// What to do with the command that arrived.
    enum Verdict: Sendable, Equatable {
        /// Run it.
        case run
        /// Refuse it with `message`; `firstOfRun` says this starts a run of refusals (log once per run, not per
        /// command: a flood must not flood the log too).
        case refuse(message: String, firstOfRun: Bool)
        /// Send `message` and disconnect: `refusedInARow` commands in a row were over the rate.
        case disconnect(message: String, refusedInARow: Int)
    }

    private var bucket: TokenBucket
    private var refusedInARow = 0

    init(policy: ServicePolicy) {
        bucket = TokenBucket(rate: policy.commandsPerSecond, burst: policy.commandBurst)
    }

    /// The verdict on a command arriving at monotonic time `now`, under `policy` (which a reload may have changed).
    mutating func admit(policy: ServicePolicy, at now: Double) -> Verdict {
        guard policy.commandsPerSecond > 0 else { return .run }
        bucket.configure(rate: policy.commandsPerSecond, burst: policy.commandBurst)
        if bucket.take(at: now) {
            refusedInARow = 0
            return .run
        }
        refusedInARow += 1
        let rate = Self.format(policy.commandsPerSecond)
        if refusedInARow > policy.floodLimit {
            return .disconnect(
                message: "rate limit: \(refusedInARow) commands in a row over \(rate) per second; disconnecting",
                refusedInARow: refusedInARow)
        }
        let burst = Self.format(policy.commandBurst)
        return .refuse(
            message: "rate limit: more than \(rate) commands per second (burst \(burst)); command dropped",
            firstOfRun: refusedInARow == 1)
    }

    /// A rate as people write it: `20`, not `20.0`.
    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? "\(Int(value))" : "\(value)"
    }
}
