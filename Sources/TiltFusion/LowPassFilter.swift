import TiltCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What `LowPassFilter` can filter: a vector space over `Double`.
@usableFromInline
protocol LowPassValue: Sendable {
    static var zero: Self { get }
    static func + (a: Self, b: Self) -> Self
    static func - (a: Self, b: Self) -> Self
    static func * (a: Self, s: Double) -> Self
}

extension Vector3: LowPassValue {}

/// A second-order Butterworth low-pass filter on a vector (`Vector3`, or a bundle of them), with a warm-up phase
/// that averages.
///
/// During the first `timeConstant` seconds the output is the running mean of all inputs, so that the output is
/// meaningful from the first sample on (a plain low-pass filter would start at its arbitrary initial state and need
/// several time constants to forget it). After that it switches to a Butterworth biquad whose cut-off frequency is
/// `√2 / (2π τ)`, started in steady state at the mean. Coefficients follow the sample interval: they are recomputed
/// only when it changes by more than 1 %.
@usableFromInline
struct LowPassFilter<Value: LowPassValue>: Sendable {
    @usableFromInline let timeConstant: Double
    @usableFromInline var output: Value = .zero
    @usableFromInline var count: Double = 0
    @usableFromInline var elapsed: Double = 0
    @usableFromInline var warm = false
    @usableFromInline var s1: Value = .zero
    @usableFromInline var s2: Value = .zero
    @usableFromInline var b0 = 0.0
    @usableFromInline var a1 = 0.0
    @usableFromInline var a2 = 0.0
    @usableFromInline var coefficientInterval = 0.0

    /// - Parameter timeConstant: seconds; the filter averages over roughly this long.
    @usableFromInline
    init(timeConstant: Double) {
        self.timeConstant = max(timeConstant, 1e-6)
    }

    /// Forgets every input.
    @usableFromInline
    mutating func reset() {
        self = LowPassFilter(timeConstant: timeConstant)
    }

    /// Feeds one input taken `dt` seconds after the previous one and returns the new output. `weight` is how many
    /// samples the input stands for (the mean of a block of samples), for the running mean of the warm-up phase.
    @inlinable @inline(__always)
    @discardableResult
    mutating func update(_ x: Value, dt: Double, timeConstant tau: Double? = nil, weight: Double = 1) -> Value {
        if !warm {
            count += weight
            elapsed += dt
            output = output + (x - output) * (weight / count)
            if elapsed >= timeConstant {
                warm = true
                setCoefficients(dt: dt, timeConstant: tau ?? timeConstant)
                // Steady state at the current mean: y = x = output.
                s1 = output * (1 - b0)
                s2 = output * (b0 - a2)
            }
            return output
        }
        if let tau {
            setCoefficients(dt: dt, timeConstant: tau)
        } else if abs(dt - coefficientInterval) > 0.01 * coefficientInterval {
            setCoefficients(dt: dt, timeConstant: timeConstant)
        }
        // Direct form II, transposed. b1 = 2 b0, b2 = b0.
        let y = x * b0 + s1
        s1 = x * (2 * b0) - y * a1 + s2
        s2 = x * b0 - y * a2
        output = y
        return y
    }

    @inlinable
    mutating func setCoefficients(dt: Double, timeConstant tau: Double) {
        let interval = max(dt, 1e-6)
        coefficientInterval = interval
        let cutoff = 2.0.squareRoot() / (2 * Double.pi * max(tau, 1e-6))
        // Keep the cut-off below Nyquist so that the bilinear transform stays well-defined.
        let x = Double.pi * min(cutoff * interval, 0.45)
        // tan(x) by its series where x is small (the usual case: cut-off far below the sample rate).
        let x2 = x * x
        let k = x < 0.05 ? x * (1 + x2 * (1.0 / 3 + x2 * (2.0 / 15))) : tan(x)
        let n = 1 / (1 + 2.0.squareRoot() * k + k * k)
        b0 = k * k * n
        a1 = 2 * (k * k - 1) * n
        a2 = (1 - 2.0.squareRoot() * k + k * k) * n
    }
}
