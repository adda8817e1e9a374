import TiltCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Generates IMU samples with a known true orientation, for filter tests.
///
/// The orientation starts at `initial` and follows `angularVelocity` (device frame, rad/s); the device's own
/// acceleration is `linearAcceleration` (earth frame, m/s²). Each sample carries what ideal sensors would read plus
/// `gyroBias` and a small deterministic pseudo-random noise: the gyroscope reads the angular velocity, the
/// accelerometer the specific force (`+g` up at rest), the magnetometer `magneticField` (earth frame, µT) plus
/// `magneticDisturbance` (earth frame, µT, as a function of time: a magnet the device passes) plus `attachedField`
/// (device frame, µT: a magnet fixed to the device, hard iron).
public struct SyntheticMotion: Sendable {
    /// Samples per second.
    public var rate: Double = 200
    public var initial: Quaternion = .identity
    public var gyroBias: Vector3 = .zero
    /// Standard deviations of the noise: gyroscope rad/s, accelerometer m/s², magnetometer µT.
    public var gyroNoise = 0.002
    public var accelNoise = 0.02
    public var magNoise = 0.2
    /// The Earth field, earth frame (ENU), µT; `nil` for a sensor without magnetometer.
    public var magneticField: Vector3? = Vector3(0, 20, -40)
    public var angularVelocity: @Sendable (Double) -> Vector3 = { _ in .zero }
    public var linearAcceleration: @Sendable (Double) -> Vector3 = { _ in .zero }
    public var magneticDisturbance: @Sendable (Double) -> Vector3 = { _ in .zero }
    public var attachedField: @Sendable (Double) -> Vector3 = { _ in .zero }

    public init() {}

    /// The samples and true orientations over `duration` seconds.
    public func generate(duration: Double) -> (samples: [MotionSample], truth: [Quaternion]) {
        let dt = 1 / rate
        let count = Int((duration * rate).rounded())
        var samples: [MotionSample] = []
        var truth: [Quaternion] = []
        samples.reserveCapacity(count)
        truth.reserveCapacity(count)
        var q = initial
        var random = NoiseSource(seed: 0x5EED)
        for k in 0..<count {
            let t = Double(k) * dt
            let omega = angularVelocity(t)
            let force = linearAcceleration(t) + Vector3(0, 0, standardGravity)
            let gyro = omega + gyroBias + random.vector(gyroNoise)
            let accel = q.inverseRotate(force) + random.vector(accelNoise)
            let mag = magneticField.map {
                q.inverseRotate($0 + magneticDisturbance(t)) + attachedField(t) + random.vector(magNoise)
            }
            samples.append(MotionSample(time: t, gyro: gyro, accel: accel, mag: mag))
            truth.append(q)
            // Integrate to the next sample with the rate at mid-interval.
            let mid = angularVelocity(t + dt / 2) * dt
            q = (q * Quaternion(rotationVector: mid)).normalized
        }
        return (samples, truth)
    }
}

/// A deterministic approximately Gaussian noise source (sum of uniform variates of a 64-bit LCG).
struct NoiseSource {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func uniform() -> Double {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(state >> 11) / Double(1 << 53)
    }

    /// Zero mean, standard deviation `sigma`.
    mutating func gaussian(_ sigma: Double) -> Double {
        // Sum of 12 uniforms minus 6 has unit variance.
        var s = -6.0
        for _ in 0..<12 { s += uniform() }
        return s * sigma
    }

    mutating func vector(_ sigma: Double) -> Vector3 {
        Vector3(gaussian(sigma), gaussian(sigma), gaussian(sigma))
    }
}
