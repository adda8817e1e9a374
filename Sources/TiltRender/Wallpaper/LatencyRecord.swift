/// Latencies counted in 0.1 ms bins up to 2 s (and one bin past it), so a wallpaper that runs for days keeps a fixed
/// 80 KB instead of every frame's number, and still says its median and 95th percentile.
package struct LatencyRecord: Sendable, Hashable {
    private static let binSeconds = 1e-4
    private var bins = [UInt32](repeating: 0, count: 20_001)

    /// Latencies counted.
    package private(set) var count = 0

    /// No latencies.
    package init() {}

    /// Counts one latency, in seconds (a negative one, from clocks that disagree, counts as 0).
    package mutating func add(_ seconds: Double) {
        let bin = seconds.isFinite ? Int((max(0, seconds) / Self.binSeconds).rounded()) : bins.count - 1
        bins[min(bin, bins.count - 1)] &+= 1
        count += 1
    }

    /// The latency below which a fraction `p` (0…1) of those counted lie, to 0.1 ms; `nil` when none were counted.
    /// The last bin stands for "2 s or more".
    package func percentile(_ p: Double) -> Double? {
        guard count > 0 else { return nil }
        let wanted = max(1, Int((Double(count) * min(max(p, 0), 1)).rounded(.up)))
        var seen = 0
        for (bin, n) in bins.enumerated() {
            seen += Int(n)
            if seen >= wanted { return Double(bin) * Self.binSeconds }
        }
        return Double(bins.count - 1) * Self.binSeconds
    }
}
