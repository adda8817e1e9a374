#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Seconds on `CLOCK_MONOTONIC`: the time base for rates, timeouts and latency across the project (and the clock
/// IIO timestamps use when a device offers it).
@inline(__always)
public func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}
