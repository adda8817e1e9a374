/// Samples missing from a stream before the next one: lost on the way (a client that did not keep up, a
/// reconnection), or a log whose time goes backwards.
///
/// A gap is never fused as if it were motion: the attitude filter does not integrate the gyroscope across it
/// (``TiltFusion/AttitudeFilter/markGap()``). Sensor logs mark one with a `# gap …` line (docs/log-format.md), and
/// tiltd tells a `raw` watcher with a `gap` message (docs/protocol.md).
public struct SampleGap: Sendable, Hashable {
    /// Samples lost, when known (a reconnection or a backwards jump does not know).
    public var count: Int?
    /// The sensor time of the first and of the last lost sample, when known.
    public var first, last: Double?
    /// Why, for people (e.g. `reconnected`, `time goes back from 43.5 to 20.0`), when not only samples were lost.
    public var reason: String?

    public init(count: Int? = nil, first: Double? = nil, last: Double? = nil, reason: String? = nil) {
        self.count = count
        self.first = first
        self.last = last
        self.reason = reason
    }

    /// This gap and `other`, which follows it with no sample between: counts added, the span from the first's
    /// start to the last's end, the reasons joined.
    public func merged(with other: SampleGap) -> SampleGap {
        let count: Int? = self.count == nil && other.count == nil ? nil : (self.count ?? 0) + (other.count ?? 0)
        let reasons = [reason, other.reason].compactMap { $0 }
        return SampleGap(
            count: count, first: first ?? other.first, last: other.last ?? last,
            reason: reasons.isEmpty ? nil : reasons.joined(separator: "; "))
    }
}
