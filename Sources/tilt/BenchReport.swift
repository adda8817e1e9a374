import Foundation

/// What `tilt bench daemon` measured, and its printed form.
struct BenchReport {
    var clients: Int
    var rate: Double
    /// The measurement window as it was, seconds.
    var seconds: Double
    var logName: String
    /// The log's sampling rate, if it says.
    var logRate: Double?
    /// Frames each client received in the window.
    var frames: [Int] = []
    /// Frames the daemon dropped for clients that were not reading fast enough, summed over the clients.
    var daemonDrops = 0
    /// How many clients answered the status request that counts drops.
    var statusAnswers = 0
    /// Sample-to-client latencies, seconds.
    var latencies: [Double] = []
    var cpuPercent: Double?
    /// The bench's own CPU over the window: near 100 % means the clients, not the daemon, set the latency.
    var benchCPUPercent: Double?
    var rssStart: Int?
    var rssLoaded: Int?
    var rssAfterClients: Int?
    var churn = 0
    var rssBeforeChurn: Int?
    var rssAfterChurn: Int?
    var fdsBeforeChurn: Int?
    var fdsAfterChurn: Int?
    var clientsAfterChurn: Int?

    /// Frames each client should get: the lower of the requested and the log's rate, over the window.
    var expectedPerClient: Double { min(rate, logRate ?? rate) * seconds }

    var text: String {
        func mib(_ bytes: Int?) -> String { bytes.map { String(format: "%.1f MiB", Double($0) / 1_048_576) } ?? "?" }
        func ms(_ seconds: Double) -> String { String(format: "%.3f ms", seconds * 1000) }
        let total = frames.reduce(0, +)
        let expected = expectedPerClient
        let minimum = frames.min() ?? 0
        let maximum = frames.max() ?? 0
        let mean = frames.isEmpty ? 0 : Double(total) / Double(frames.count)
        let missing = max(0, expected * Double(clients) - Double(total))
        var lines = [
            String(
                format: "tilt bench daemon: %d clients × %g Hz for %.1f s; tiltd replaying %@ (%@, looped)",
                clients, rate, seconds, logName, logRate.map { String(format: "%g Hz", $0) } ?? "rate unknown"),
            String(
                format: "frames per client      expected %.0f, received min %d / mean %.1f / max %d",
                expected, minimum, mean, maximum),
            String(
                format: "frames, all clients    expected %.0f, received %d (short by %.0f, %.2f %%)",
                expected * Double(clients), total, missing,
                expected > 0 ? missing / (expected * Double(clients)) * 100 : 0),
            "daemon drops           \(daemonDrops) (frames not written to unwritable clients; "
                + "\(statusAnswers)/\(clients) clients reported)",
            "daemon CPU             " + (cpuPercent.map { String(format: "%.1f %% of one core", $0) } ?? "?")
                + (benchCPUPercent.map { String(format: " (the bench's clients: %.1f %%)", $0) } ?? ""),
            "daemon RSS             start \(mib(rssStart)), with \(clients) clients \(mib(rssLoaded)), "
                + "after they left \(mib(rssAfterClients))",
        ]
        if latencies.isEmpty {
            lines.append("latency sample→client  no frames carried a mono time (is tiltd older than this tilt?)")
        } else {
            let sorted = latencies.sorted()
            func percentile(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int(p * Double(sorted.count)))] }
            lines.append(
                "latency sample→client  p50 \(ms(percentile(0.5))), p99 \(ms(percentile(0.99))), "
                    + "max \(ms(sorted.last!)) (\(sorted.count) frames)")
        }
        if churn > 0 {
            lines.append(
                "churn \(churn) connections  RSS \(mib(rssBeforeChurn)) → \(mib(rssAfterChurn)), open fds "
                    + "\(fdsBeforeChurn.map(String.init) ?? "?") → \(fdsAfterChurn.map(String.init) ?? "?"), "
                    + "clients left \(clientsAfterChurn.map(String.init) ?? "?")")
        }
        return lines.joined(separator: "\n")
    }
}
