#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Seconds on `CLOCK_MONOTONIC`: the time base for rates, timeouts and latency across the project (and the clock
/// IIO timestamps use when a device offers it).
@inline(__always)
public func monotonicSeconds() -> Double { seconds(on: CLOCK_MONOTONIC) }

/// Seconds on `CLOCK_REALTIME` (the wall clock, since 1970): what a browser's `performance.timeOrigin` counts in.
public func wallClockSeconds() -> Double { seconds(on: CLOCK_REALTIME) }

@inline(__always)
private func seconds(on clock: clockid_t) -> Double {
    var ts = timespec()
    clock_gettime(clock, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}
