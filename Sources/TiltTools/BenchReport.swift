import FoundationEssentials
import TiltCore

/// What `tilt bench daemon` measured, and its printed form.
package struct BenchReport: Sendable {
    /// Watching clients.
    package var clients: Int
    /// Frames per second each client asked for.
    package var rate: Double
    /// The measurement window as it was, seconds.
    package var seconds: Double
    /// The replayed log's file name.
    package var logName: String
    /// The log's sampling rate, if it says.
    package var logRate: Double?
    /// Frames each client received in the window.
    package var frames: [Int] = []
    /// Frames the daemon dropped for clients that were not reading fast enough, summed over the clients.
    package var daemonDrops = 0
    /// How many clients answered the status request that counts drops.
    package var statusAnswers = 0
    /// Sample-to-client latencies, seconds.
    package var latencies: [Double] = []
    /// The daemon's CPU over the window, percent of one core.
    package var cpuPercent: Double?
    /// The bench's own CPU over the window: near 100 % means the clients, not the daemon, set the latency.
    package var benchCPUPercent: Double?
    /// The daemon's resident memory, bytes: before the clients, with them, and after they left.
    package var rssStart: Int?
    /// See ``rssStart``.
    package var rssLoaded: Int?
    /// See ``rssStart``.
    package var rssAfterClients: Int?
    /// Connections made and dropped after the measurement (`--churn`); 0 for none.
    package var churn = 0
    /// The daemon's resident memory and open descriptors before and after the churn, and the clients it still
    /// counted after it.
    package var rssBeforeChurn: Int?
    /// See ``rssBeforeChurn``.
    package var rssAfterChurn: Int?
    /// See ``rssBeforeChurn``.
    package var fdsBeforeChurn: Int?
    /// See ``rssBeforeChurn``.
    package var fdsAfterChurn: Int?
    /// See ``rssBeforeChurn``.
    package var clientsAfterChurn: Int?

    /// A report of `clients` × `rate` Hz over `seconds`, replaying `logName` (sampled at `logRate` Hz, if known);
    /// the measurements are filled in as they are made.
    package init(clients: Int, rate: Double, seconds: Double, logName: String, logRate: Double?) {
        self.clients = clients
        self.rate = rate
        self.seconds = seconds
        self.logName = logName
        self.logRate = logRate
    }

    /// Frames each client should get: the lower of the requested and the log's rate, over the window.
    package var expectedPerClient: Double { min(rate, logRate ?? rate) * seconds }

    /// The report as `tilt bench daemon` prints it.
    package var text: String {
        func mib(_ bytes: Int?) -> String { bytes.map { String(printf: "%.1f MiB", Double($0) / 1_048_576) } ?? "?" }
        func ms(_ seconds: Double) -> String { String(printf: "%.3f ms", seconds * 1000) }
        let total = frames.reduce(0, +)
        let expected = expectedPerClient
        let minimum = frames.min() ?? 0
        let maximum = frames.max() ?? 0
        let mean = frames.isEmpty ? 0 : Double(total) / Double(frames.count)
        let missing = max(0, expected * Double(clients) - Double(total))
        var lines = [
            String(printf: "tilt bench daemon: %d clients × %g Hz for %.1f s; ", clients, rate, seconds)
                + "tiltd replaying \(logName) (\(logRate.map { String(printf: "%g Hz", $0) } ?? "rate unknown"), looped)",
            String(
                printf: "frames per client      expected %.0f, received min %d / mean %.1f / max %d",
                expected, minimum, mean, maximum),
            String(
                printf: "frames, all clients    expected %.0f, received %d (short by %.0f, %.2f %%)",
                expected * Double(clients), total, missing,
                expected > 0 ? missing / (expected * Double(clients)) * 100 : 0),
            "daemon drops           \(daemonDrops) (frames not written to unwritable clients; "
                + "\(statusAnswers)/\(clients) clients reported)",
            "daemon CPU             " + (cpuPercent.map { String(printf: "%.1f %% of one core", $0) } ?? "?")
                + (benchCPUPercent.map { String(printf: " (the bench's clients: %.1f %%)", $0) } ?? ""),
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
