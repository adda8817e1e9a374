import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// CPU seconds (user + system) process `pid` uses in the next `seconds` of wall time, from `/proc/PID/stat`.
public func cpuSeconds(of pid: Int32, over seconds: Double) throws -> Double {
    func ticks() throws -> Double {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        guard let close = stat.lastIndex(of: ")") else { throw TestError("no process name in /proc/\(pid)/stat") }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After the name: state is field 3, utime 14 and stime 15 (1-based over the whole line).
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else {
            throw TestError("unexpected /proc/\(pid)/stat: \(stat)")
        }
        return user + system
    }
    let before = try ticks()
    Thread.sleep(forTimeInterval: seconds)
    return (try ticks() - before) / Double(sysconf(Int32(_SC_CLK_TCK)))
}
