import TiltCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One recording scored the way `tilt bench fusion` scores it: fused with a fresh filter in 9D (when it has a
/// magnetometer) and 6D, each scored against the reference with BROAD's metric, and the filter alone timed.
///
/// 6D scores have the mean heading offset removed (without a magnetometer, heading is free). The timing covers only
/// the filter's updates, not parsing or scoring, so it measures the filter's speed; it is the thread's CPU time, so
/// a busy machine does not count against it.
package struct BroadTrial: Sendable {
    /// The 9D score; `nil` for a recording without magnetometer.
    package var nine: BroadScore?
    /// The 6D score.
    package var six: BroadScore
    /// Samples the filter updated on, over both runs.
    package var fusedSamples: Int
    /// Seconds spent in the filter, over both runs.
    package var filterSeconds: Double
    /// Seconds spent in the filter in the 9D run (0 without magnetometer).
    package var nineSeconds: Double
    /// The root mean square of the heading accuracy the 9D filter reported over the scored rows, degrees: beside
    /// the 9D heading RMSE, it shows whether the frames' `headingAccuracy` tells the truth. `nil` without
    /// magnetometer.
    package var headingAccuracy: Double?

    /// Fuses and scores one recording.
    ///
    /// - Parameters:
    ///   - truth: The reference orientation per sample, `nil` where unknown.
    ///   - movement: Which samples are scored (BROAD's `movement = 1`); `nil` scores all with a reference.
    ///   - configuration: The filter to try; its `useMagnetometer` is set for each run.
    package init(
        samples: [MotionSample], truth: [Quaternion?], movement: [Bool]?, hasMagnetometer: Bool,
        configuration: AttitudeFilter.Configuration
    ) {
        var estimates = [Quaternion](repeating: .identity, count: samples.count)
        var configuration = configuration
        fusedSamples = 0
        filterSeconds = 0
        nineSeconds = 0
        headingAccuracy = nil
        nine = nil
        if hasMagnetometer {
            configuration.useMagnetometer = true
            nineSeconds = Self.fuse(samples, configuration: configuration, into: &estimates)
            filterSeconds += nineSeconds
            headingAccuracy = Self.meanHeadingAccuracy(
                samples, configuration: configuration, truth: truth, movement: movement)
            fusedSamples += samples.count
            nine = BroadScore.score(estimates: estimates, truth: truth, movement: movement, removeHeadingOffset: false)
        }
        configuration.useMagnetometer = false
        filterSeconds += Self.fuse(samples, configuration: configuration, into: &estimates)
        fusedSamples += samples.count
        six = BroadScore.score(estimates: estimates, truth: truth, movement: movement, removeHeadingOffset: true)
    }

    /// Runs a fresh filter over the samples into `estimates` (as long as `samples`); returns the seconds spent in
    /// the filter.
    package static func fuse(
        _ samples: [MotionSample], configuration: AttitudeFilter.Configuration, into estimates: inout [Quaternion]
    ) -> Double {
        var filter = AttitudeFilter(configuration: configuration)
        let start = threadTime()
        estimates.withUnsafeMutableBufferPointer { out in
            samples.withUnsafeBufferPointer { input in
                for i in 0..<input.count {
                    filter.fuse(input[i])
                    out[i] = filter.quaternion
                }
            }
        }
        return threadTime() - start
    }

    /// Runs a fresh filter over the samples (untimed) and returns the RMS of its reported heading accuracy over
    /// the rows that are scored, degrees.
    static func meanHeadingAccuracy(
        _ samples: [MotionSample], configuration: AttitudeFilter.Configuration, truth: [Quaternion?],
        movement: [Bool]?
    ) -> Double? {
        var filter = AttitudeFilter(configuration: configuration)
        var sum = 0.0
        var count = 0
        for (i, sample) in samples.enumerated() {
            let estimate = filter.update(sample)
            guard i < truth.count, truth[i] != nil, movement.map({ i < $0.count && $0[i] }) ?? true,
                let accuracy = estimate.headingAccuracy
            else { continue }
            sum += accuracy * accuracy
            count += 1
        }
        return count > 0 ? (sum / Double(count)).squareRoot() * 180 / .pi : nil
    }

    /// The calling thread's CPU time, seconds: unlike the wall clock, it does not count the time other processes
    /// on a busy machine take the core away, so a speed measured with it holds from one run to the next.
    static func threadTime() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
    }
}
