import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Readings of another process from `/proc`: CPU time, resident memory and open file descriptors.
package struct ProcessProbe: Sendable {
    /// The process read.
    package let pid: Int32

    /// Probes the process `pid`.
    package init(pid: Int32) {
        self.pid = pid
    }

    /// User plus system CPU time so far, seconds (`/proc/PID/stat` fields 14 and 15).
    package var cpuSeconds: Double? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let ticks = Self.cpuTicks(stat: text)
        else { return nil }
        return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Resident set size, bytes (`VmRSS` in `/proc/PID/status`).
    package var residentBytes: Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        return Self.residentBytes(status: text)
    }

    /// Number of open file descriptors (entries of `/proc/PID/fd`).
    package var openDescriptors: Int? {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd"))?.count
    }

    /// User plus system CPU time in clock ticks, from the text of `/proc/PID/stat` (fields 14 and 15); `nil` when
    /// the text is not of that form.
    ///
    /// The command name (field 2) is in parentheses and may itself hold spaces and parentheses, so the fields are
    /// counted from the last `)`.
    package static func cpuTicks(stat text: String) -> Double? {
        guard let close = text.lastIndex(of: ")") else { return nil }
        // After "pid (comm) " come the fields from 3 (state) on; utime and stime are fields 14 and 15.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return user + system
    }

    /// The resident set size in bytes, from the text of `/proc/PID/status` (its `VmRSS:` line, in KiB); `nil`
    /// when there is none (a kernel thread, a zombie).
    package static func residentBytes(status text: String) -> Int? {
        for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let kib = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap { Int($0) }
            return kib.map { $0 * 1024 }
        }
        return nil
    }

    /// This process's own user plus system CPU time so far, seconds.
    package static var ownCPUSeconds: Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) * 1e-6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// Raises this process's soft limit on open files to its hard limit; returns the new soft limit.
    @discardableResult
    package static func raiseOpenFileLimit() -> UInt64 {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
        if limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        return UInt64(limit.rlim_cur)
    }
}
