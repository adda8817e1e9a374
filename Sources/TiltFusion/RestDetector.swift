import TiltCore

/// Decides whether the device lies still, from how far the gyroscope and accelerometer wander from their own
/// short-term means.
///
/// Each sample is compared with a first-order low-pass of its sensor (time constant `filterTimeConstant`); the device
/// is at rest once both deviations have stayed under their thresholds for `minimumDuration` seconds. Comparing with
/// the local mean rather than with zero makes the test independent of the gyroscope bias and of the orientation;
/// the mean itself must stay below `maximumMeanRate` (the largest plausible bias), so that a steady turn is motion.
@usableFromInline
struct RestDetector: Sendable {
    @usableFromInline let gyroThreshold: Double
    @usableFromInline let accelThreshold: Double
    @usableFromInline let minimumDuration: Double
    @usableFromInline let filterTimeConstant: Double
    @usableFromInline let inverseFilterTimeConstant: Double
    @usableFromInline let maximumMeanRate: Double
    /// Short-term mean of the gyroscope, rad/s: at rest, the bias.
    @usableFromInline var gyroMean: Vector3 = .zero
    @usableFromInline var accelMean: Vector3 = .zero
    @usableFromInline var stillTime = 0.0
    @usableFromInline var started = false

    @usableFromInline
    init(
        gyroThreshold: Double, accelThreshold: Double, minimumDuration: Double, filterTimeConstant: Double,
        maximumMeanRate: Double
    ) {
        self.maximumMeanRate = maximumMeanRate
        self.gyroThreshold = gyroThreshold
        self.accelThreshold = accelThreshold
        self.minimumDuration = minimumDuration
        self.filterTimeConstant = max(filterTimeConstant, 1e-6)
        inverseFilterTimeConstant = 1 / self.filterTimeConstant
    }

    /// Whether the device has been still for at least `minimumDuration`.
    @inlinable var isResting: Bool { stillTime >= minimumDuration }

    /// Feeds one sample (raw gyroscope and accelerometer) taken `dt` seconds after the previous one.
    @inlinable @inline(__always)
    mutating func update(gyro: Vector3, accel: Vector3, dt: Double) {
        guard started else {
            started = true
            gyroMean = gyro
            accelMean = accel
            return
        }
        let alpha = min(dt * inverseFilterTimeConstant, 1)
        gyroMean = gyroMean + (gyro - gyroMean) * alpha
        accelMean = accelMean + (accel - accelMean) * alpha
        // A steady turn (a turntable) also keeps the gyroscope near its mean: a mean rate larger than any
        // plausible bias is motion.
        let still =
            gyroMean.squaredNorm < maximumMeanRate * maximumMeanRate
            && (gyro - gyroMean).squaredNorm < gyroThreshold * gyroThreshold
            && (accel - accelMean).squaredNorm < accelThreshold * accelThreshold
        stillTime = still ? stillTime + dt : 0
    }
}
