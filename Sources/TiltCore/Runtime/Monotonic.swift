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

/// Seconds on `CLOCK_REALTIME` (the wall clock, since 1970): what a browser's `performance.timeOrigin` counts in.
public func wallClockSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_REALTIME, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}
