#if canImport(Glibc)
    import Glibc
#endif

/// The open-file limit (`RLIMIT_NOFILE`): every client holds one descriptor.
enum FileLimit {
    /// Raises the soft limit to the hard limit; returns the soft limit now in force and the hard limit.
    @discardableResult
    static func raiseToHardLimit() -> (soft: UInt64, hard: UInt64) {
        var limit = rlimit()
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        guard getrlimit(resource, &limit) == 0 else { return (0, 0) }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(resource, &raised) == 0 { limit = raised }
        }
        return (UInt64(limit.rlim_cur), UInt64(limit.rlim_max))
    }

    /// The soft and hard limits as they are.
    static var current: (soft: UInt64, hard: UInt64) {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return (0, 0) }
        return (UInt64(limit.rlim_cur), UInt64(limit.rlim_max))
    }
}
