import TiltCore

/// Decides whether the device lies still, from how far the gyroscope and accelerometer wander from their own
/// short-term means.
///
/// The samples are compared, a block at a time, with a first-order low-pass of their sensor (time constant
/// `filterTimeConstant`); the device is at rest once both deviations (RMS over each block) have stayed under their
/// thresholds for `minimumDuration` seconds. Comparing with the local mean rather than with zero makes the test
/// independent of the gyroscope bias and of the orientation; the mean itself must stay below `maximumMeanRate` (the
/// largest plausible bias), so that a steady turn is motion.
///
/// Per sample only sums are kept (`add`); `closeBlock` judges them. The block's RMS deviation stands for each
/// sample's: a block of tens of milliseconds is far shorter than the still time asked for.
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
    /// The current block's sums: of the readings and of their squared lengths, and how many.
    @usableFromInline var gyroSum = Vector3(0, 0, 0)
    @usableFromInline var gyroSquares = 0.0
    @usableFromInline var accelSum = Vector3(0, 0, 0)
    @usableFromInline var accelSquares = 0.0
    @usableFromInline var count = 0.0

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

    /// Adds one sample (raw gyroscope and accelerometer) to the current block.
    @inlinable @inline(__always)
    mutating func add(gyro: Vector3, accel: Vector3) {
        gyroSum = gyroSum + gyro
        gyroSquares += gyro.squaredNorm
        accelSum = accelSum + accel
        accelSquares += accel.squaredNorm
        count += 1
    }

    /// Judges the current block, which lasted `time` seconds, and starts a new one.
    @inlinable
    mutating func closeBlock(time: Double) {
        guard count > 0 else { return }
        let inverse = 1 / count
        let gyroBlock = gyroSum * inverse
        let accelBlock = accelSum * inverse
        if !started {
            started = true
            gyroMean = gyroBlock
            accelMean = accelBlock
        }
        // Mean squared deviation from the short-term mean μ: Σ|x|²/n − 2 μ·x̄ + |μ|².
        let gyroDeviation = gyroSquares * inverse - 2 * gyroMean.dot(gyroBlock) + gyroMean.squaredNorm
        let accelDeviation = accelSquares * inverse - 2 * accelMean.dot(accelBlock) + accelMean.squaredNorm
        // A steady turn (a turntable) also keeps the gyroscope near its mean: a mean rate larger than any
        // plausible bias is motion.
        let still =
            gyroMean.squaredNorm < maximumMeanRate * maximumMeanRate
            && gyroDeviation < gyroThreshold * gyroThreshold
            && accelDeviation < accelThreshold * accelThreshold
        stillTime = still ? stillTime + time : 0
        let alpha = min(time * inverseFilterTimeConstant, 1)
        gyroMean = gyroMean + (gyroBlock - gyroMean) * alpha
        accelMean = accelMean + (accelBlock - accelMean) * alpha
        clearBlock()
    }

    /// Drops the current block's samples (after a gap, the averages start afresh).
    @inlinable
    mutating func clearBlock() {
        gyroSum = Vector3(0, 0, 0)
        gyroSquares = 0
        accelSum = Vector3(0, 0, 0)
        accelSquares = 0
        count = 0
    }
}
