#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The 1€ filter of Casiez, Roussel and Vogel (CHI 2012): a low-pass filter whose cutoff rises with speed, so a
/// still signal is smooth and a moving one has little lag.
///
/// Each update low-passes the signal's derivative with the fixed cutoff `dcutoff`, then low-passes the signal with
/// the cutoff `mincutoff + beta·|derivative|`. The smoothing factor for cutoff `fc` at step `dt` is
/// `α = 1 / (1 + τ/dt)` with `τ = 1/(2π fc)`.
package struct OneEuroFilter: Sendable {
    /// Filter parameters.
    package struct Configuration: Sendable, Hashable {
        /// Cutoff in Hz when the signal is still: lower means smoother and more lag.
        package var minCutoff: Double
        /// How fast the cutoff rises with speed (per unit of the signal's rate): higher means less lag in motion.
        package var beta: Double
        /// Cutoff in Hz for the derivative estimate.
        package var derivativeCutoff: Double

        package init(minCutoff: Double = 1.0, beta: Double = 0.007, derivativeCutoff: Double = 1.0) {
            self.minCutoff = minCutoff
            self.beta = beta
            self.derivativeCutoff = derivativeCutoff
        }
    }

    package var configuration: Configuration
    private var lastTime: Double?
    private var value: Double = 0
    private var derivative: Double = 0

    package init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    /// Forgets the history; the next sample passes through unchanged.
    package mutating func reset() {
        lastTime = nil
        derivative = 0
    }

    /// The smoothing factor for cutoff `cutoff` Hz over `dt` seconds.
    @inlinable
    package static func alpha(cutoff: Double, dt: Double) -> Double {
        let tau = 1 / (2 * Double.pi * cutoff)
        return 1 / (1 + tau / dt)
    }

    /// Filters `x` observed at `time` (seconds) and returns the smoothed value.
    ///
    /// A repeated or backwards timestamp returns the previous output unchanged; a non-finite input is ignored.
    package mutating func filter(_ x: Double, at time: Double) -> Double {
        guard x.isFinite, time.isFinite else { return value }
        guard let last = lastTime else {
            lastTime = time
            value = x
            derivative = 0
            return x
        }
        let dt = time - last
        guard dt > 0 else { return value }
        lastTime = time
        let dx = (x - value) / dt
        derivative += Self.alpha(cutoff: configuration.derivativeCutoff, dt: dt) * (dx - derivative)
        let cutoff = configuration.minCutoff + configuration.beta * abs(derivative)
        value += Self.alpha(cutoff: cutoff, dt: dt) * (x - value)
        return value
    }
}
