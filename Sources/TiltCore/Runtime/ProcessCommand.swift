import FoundationEssentials

/// The command name of process `pid` (`/proc/PID/comm`, e.g. `iio-sensor-proxy`), or `nil` when it cannot be read
/// (the process is gone, or another user's under a restricted `/proc`).
public func processCommand(pid: Int, procRoot: String = "/proc") -> String? {
    (try? String(contentsOfFile: "\(procRoot)/\(pid)/comm", encoding: .utf8))?
        .trimmingWhitespace
}
