import TiltCore

/// Estimates the gyroscope's errors, a bias and a relative scale-factor error per axis, for the attitude filter.
///
/// At rest the bias follows the gyroscope's short-term mean (`followRest`). In motion the errors show as a turn of
/// the filter's almost-inertial frame against space: a remaining bias `b` and scale errors `s` turn it at
/// `R·(b + s ⊙ ω)` (`R`: device → almost-inertial, `ω` the rate), and the accelerometer's correction is that turn
/// rate through the accelerometer's low-pass, its horizontal part only. So each unknown has a regressor, one of R's
/// columns (bias) or that column times the rate about its axis (scale), passed through the same low-pass; the
/// correction rate is their sum weighted by the remaining errors, and a least-mean-squares step (`learn`) removes
/// them, as the VQF filter (Laidig and Seel, 2023) does for the bias. The scale step is normalised (time constant
/// `scaleTimeConstant` at rates well above `scaleReferenceRate`) and every estimate is bounded.
///
/// The regressors change at the pace of the rotation and are wanted at the pace of the low-pass (seconds): per
/// sample only their sums are kept (`add`); `closeBlock` turns a block's sums into the block's mean and low-passes
/// it.
@usableFromInline
struct GyroErrorEstimator: Sendable {
    /// The estimate's time constants and bounds (see ``AttitudeFilter/Configuration`` for their meaning).
    @usableFromInline
    struct Configuration: Sendable {
        /// Time constant of the bias estimate in motion, s.
        @usableFromInline var motionBiasTimeConstant: Double
        /// Time constant with which the bias follows the gyroscope mean at rest, s.
        @usableFromInline var restBiasTimeConstant: Double
        /// Time constant of the scale-factor estimate during fast rotation, s (0 turns it off).
        @usableFromInline var scaleTimeConstant: Double
        /// Rotation rate below which the scale factors are hardly learned, rad/s.
        @usableFromInline var scaleReferenceRate: Double
        /// Largest scale-factor error per axis, relative.
        @usableFromInline var maxScaleError: Double
        /// Largest bias per axis, rad/s.
        @usableFromInline var maxBias: Double

        @usableFromInline
        init(
            motionBiasTimeConstant: Double, restBiasTimeConstant: Double, scaleTimeConstant: Double,
            scaleReferenceRate: Double, maxScaleError: Double, maxBias: Double
        ) {
            self.motionBiasTimeConstant = motionBiasTimeConstant
            self.restBiasTimeConstant = restBiasTimeConstant
            self.scaleTimeConstant = scaleTimeConstant
            self.scaleReferenceRate = scaleReferenceRate
            self.maxScaleError = maxScaleError
            self.maxBias = maxBias
        }
    }

    @usableFromInline let configuration: Configuration
    /// Reciprocals of the bias time constants.
    @usableFromInline let inverseMotionBiasTimeConstant: Double
    @usableFromInline let inverseRestBiasTimeConstant: Double
    /// The bias estimate, rad/s, device frame.
    @usableFromInline var bias: Vector3 = .zero
    /// The estimated relative scale-factor error of each axis (0.01: reads 1 % high).
    @usableFromInline var scale: Vector3 = .zero
    /// The regressors, through the accelerometer's low-pass.
    @usableFromInline var regressors: LowPassFilter<GyroErrorRegressors>
    /// The gyroscope's readings over the current block, each times its index in the block (1, 2, …), for the
    /// block's scale regressors (see `closeBlock`).
    @usableFromInline var rateMoment = Vector3(0, 0, 0)
    /// R's columns summed over the current block (the bias regressors' sums).
    @usableFromInline var columnSumX = Vector3(0, 0, 0)
    @usableFromInline var columnSumY = Vector3(0, 0, 0)
    @usableFromInline var columnSumZ = Vector3(0, 0, 0)

    /// - Parameter filterTimeConstant: the time constant of the accelerometer's low-pass, s, which the regressors
    ///   go through too.
    @usableFromInline
    init(configuration: Configuration, filterTimeConstant: Double) {
        self.configuration = configuration
        inverseMotionBiasTimeConstant = 1 / configuration.motionBiasTimeConstant
        inverseRestBiasTimeConstant = 1 / configuration.restBiasTimeConstant
        regressors = LowPassFilter(timeConstant: filterTimeConstant)
    }

    /// The rate `gyro` stands for with the current bias and scale errors removed, rad/s.
    @inlinable @inline(__always)
    func corrected(_ gyro: Vector3) -> Vector3 {
        gyro - bias - Vector3(scale.x * gyro.x, scale.y * gyro.y, scale.z * gyro.z)
    }

    /// Adds one sample's R (its columns, after the sample's rotation) to the current block; `add(gyro:index:)` adds
    /// its rate.
    @inlinable @inline(__always)
    mutating func add(cx: Vector3, cy: Vector3, cz: Vector3) {
        columnSumX = columnSumX + cx
        columnSumY = columnSumY + cy
        columnSumZ = columnSumZ + cz
    }

    /// Adds one sample's raw gyroscope reading to the current block, with its index in the block (1 for the first
    /// sample).
    @inlinable @inline(__always)
    mutating func add(gyro: Vector3, index: Double) {
        rateMoment = rateMoment + gyro * index
    }

    /// Drops the current block's sums.
    @inlinable
    mutating func clearBlock() {
        rateMoment = Vector3(0, 0, 0)
        columnSumX = Vector3(0, 0, 0)
        columnSumY = Vector3(0, 0, 0)
        columnSumZ = Vector3(0, 0, 0)
    }

    /// Forgets the block and the low-passed regressors (after a gap), keeping the estimates.
    @inlinable
    mutating func restart() {
        regressors.reset()
        clearBlock()
    }

    /// The regressors summed over the block's `count` samples i = 1 … n, with R taken as varying linearly between its
    /// values at the block's start (`start`, R₀) and end (`end`, Rₙ): ΣRᵢ·eₖ·ωᵢₖ = R₀·eₖ·Σωᵢₖ + (Rₙ − R₀)·eₖ·Σ(i/n)·ωᵢₖ.
    /// `rateSum` is the gyroscope's plain sum over the block. The block turns by a few degrees at most, so R's
    /// departure from a straight line (second order in that turn) is negligible for an estimate that averages over
    /// seconds.
    @inline(__always)
    func blockSum(start: Quaternion, end: Quaternion, rateSum: Vector3, count: Int) -> GyroErrorRegressors {
        let (r0x, r0y, r0z) = AttitudeFilter.columns(start)
        let (rnx, rny, rnz) = AttitudeFilter.columns(end)
        let moment = rateMoment * (1 / Double(count))
        return GyroErrorRegressors(
            biasX: columnSumX, biasY: columnSumY, biasZ: columnSumZ,
            scaleX: r0x * rateSum.x + (rnx - r0x) * moment.x, scaleY: r0y * rateSum.y + (rny - r0y) * moment.y,
            scaleZ: r0z * rateSum.z + (rnz - r0z) * moment.z)
    }

    /// Closes the block of `count` samples that lasted `time` seconds (see `blockSum` for the other arguments):
    /// low-passes its mean regressors, starts a new block and returns the low-passed regressors.
    @inline(__always)
    mutating func closeBlock(
        start: Quaternion, end: Quaternion, rateSum: Vector3, count: Int, time: Double
    ) -> GyroErrorRegressors {
        let sum = blockSum(start: start, end: end, rateSum: rateSum, count: count)
        clearBlock()
        return regressors.update(sum * (1 / Double(count)), dt: time, weight: Double(count))
    }

    /// One least-mean-squares step over a block of `time` seconds: `r`, the low-passed regressors; `rate`, the
    /// accelerometer's correction rate in the almost-inertial frame; `up`, earth up in that frame (the correction
    /// about it is not observed, so only the regressors' horizontal parts count).
    @inline(__always)
    mutating func learn(_ r: GyroErrorRegressors, correctionRate y: Vector3, up u: Vector3, time: Double) {
        func horizontal(_ v: Vector3) -> Vector3 { v - u * u.dot(v) }
        let gainBias = time / configuration.motionBiasTimeConstant
        bias = clamped(
            bias
                - Vector3(horizontal(r.biasX).dot(y), horizontal(r.biasY).dot(y), horizontal(r.biasZ).dot(y))
                * gainBias)
        if configuration.scaleTimeConstant > 0 {
            let ax = horizontal(r.scaleX)
            let ay = horizontal(r.scaleY)
            let az = horizontal(r.scaleZ)
            // Normalised step: time constant `scaleTimeConstant` once the rotation is well above the reference rate.
            let r0 = configuration.scaleReferenceRate
            let gain =
                time / configuration.scaleTimeConstant / (r0 * r0 + ax.squaredNorm + ay.squaredNorm + az.squaredNorm)
            let limit = configuration.maxScaleError
            scale = Vector3(
                max(-limit, min(limit, scale.x - gain * ax.dot(y))),
                max(-limit, min(limit, scale.y - gain * ay.dot(y))),
                max(-limit, min(limit, scale.z - gain * az.dot(y))))
        }
    }

    /// At rest: the bias follows the gyroscope's short-term mean `mean` over a block of `time` seconds.
    @inline(__always)
    mutating func followRest(mean: Vector3, time: Double) {
        bias = clamped(bias + (mean - bias) * min(time * inverseRestBiasTimeConstant, 1))
    }

    /// The magnetometer's heading correction, as a rotation `turn` per sample (device frame, rad) at the sample
    /// interval `sampleInterval`: the bias takes it with the motion time constant.
    @inline(__always)
    mutating func learnHeading(turn: Vector3, sampleInterval: Double) {
        let gainBias = sampleInterval * inverseMotionBiasTimeConstant
        bias = clamped(bias - turn * gainBias)
    }

    /// `b` with each component bounded by `maxBias`.
    @inline(__always)
    func clamped(_ b: Vector3) -> Vector3 {
        let limit = configuration.maxBias
        return Vector3(max(-limit, min(limit, b.x)), max(-limit, min(limit, b.y)), max(-limit, min(limit, b.z)))
    }
}

/// The six regressors of the gyroscope error estimate (see ``GyroErrorEstimator``), as one value for the low-pass.
@usableFromInline
struct GyroErrorRegressors: LowPassValue {
    @usableFromInline var biasX: Vector3
    @usableFromInline var biasY: Vector3
    @usableFromInline var biasZ: Vector3
    @usableFromInline var scaleX: Vector3
    @usableFromInline var scaleY: Vector3
    @usableFromInline var scaleZ: Vector3

    @inlinable
    init(biasX: Vector3, biasY: Vector3, biasZ: Vector3, scaleX: Vector3, scaleY: Vector3, scaleZ: Vector3) {
        self.biasX = biasX
        self.biasY = biasY
        self.biasZ = biasZ
        self.scaleX = scaleX
        self.scaleY = scaleY
        self.scaleZ = scaleZ
    }

    @usableFromInline static let zero = GyroErrorRegressors(
        biasX: .zero, biasY: .zero, biasZ: .zero, scaleX: .zero, scaleY: .zero, scaleZ: .zero)

    @inlinable @inline(__always)
    static func + (a: Self, b: Self) -> Self {
        Self(
            biasX: a.biasX + b.biasX, biasY: a.biasY + b.biasY, biasZ: a.biasZ + b.biasZ,
            scaleX: a.scaleX + b.scaleX, scaleY: a.scaleY + b.scaleY, scaleZ: a.scaleZ + b.scaleZ)
    }

    @inlinable @inline(__always)
    static func - (a: Self, b: Self) -> Self {
        Self(
            biasX: a.biasX - b.biasX, biasY: a.biasY - b.biasY, biasZ: a.biasZ - b.biasZ,
            scaleX: a.scaleX - b.scaleX, scaleY: a.scaleY - b.scaleY, scaleZ: a.scaleZ - b.scaleZ)
    }

    @inlinable @inline(__always)
    static func * (a: Self, s: Double) -> Self {
        Self(
            biasX: a.biasX * s, biasY: a.biasY * s, biasZ: a.biasZ * s, scaleX: a.scaleX * s, scaleY: a.scaleY * s,
            scaleZ: a.scaleZ * s)
    }
}
