import TiltCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The attitude filter (AHRS): fuses gyroscope, accelerometer and, when present, magnetometer samples into the
/// device → earth (ENU) orientation, one sample at a time, causally, as the daemon runs it.
///
/// The orientation is kept as three factors, `q = heading(δ) ⊗ qInclination ⊗ qGyro`:
/// - `qGyro` integrates the bias-corrected gyroscope: device → a frame that is fixed in space up to gyroscope drift
///   (the "almost inertial" frame).
/// - The accelerometer, rotated into that almost-inertial frame, is low-pass filtered there (second-order, time
///   constant `accelTimeConstant`). In that frame the device's own accelerations average out — position stays
///   bounded, so its second derivative averages to zero — while gravity stays put. `qInclination` is then the
///   rotation that takes the filtered vector to earth up; it is corrected fully each block, the smoothing having
///   been done before.
/// - `δ`, a heading offset about earth up, is a first-order low-pass (time constant `magTimeConstant`) of the
///   heading that makes the horizontal magnetic field point north. Readings whose strength or dip angle depart from
///   the learned Earth field are rejected, and the heading then rides on the gyroscope.
///
/// The gyroscope bias is estimated two ways: at rest, as the slow mean of the gyroscope; in motion, from the
/// correction rates the accelerometer (and the undisturbed magnetometer) apply (time constant
/// `motionBiasTimeConstant`). In motion the per-axis scale-factor errors are estimated too: a MEMS gyroscope's
/// sensitivity is off by up to a few per cent, so during fast rotation the almost-inertial frame turns by that
/// fraction of the rotation (0.5 % of 300 °/s is 1.5 °/s), and the low-pass lets such a steadily growing error
/// through with a lag of about its time constant (1.5 °/s × 3 s = 4.5°). Both estimates correlate the correction
/// rate with regressors passed through the same low-pass as the accelerometer, as the VQF filter (Laidig and Seel,
/// 2023) does for the bias, so the low-pass's lag is accounted for rather than mistaken for error; the scale step
/// is normalised (time constant `scaleTimeConstant` at rates well above `scaleReferenceRate`) and bounded by
/// `maxScaleError`.
///
/// Per sample the filter only integrates the gyroscope and adds the accelerometer, the magnetometer and the regressors,
/// rotated into the almost-inertial frame (where gravity and the Earth field stand still), to sums over a block of
/// up to `regressorBlock` samples (60 ms at most), and judges each magnetometer reading for disturbance; every
/// correction (inclination, heading, gyroscope errors, hard iron) runs once per block on those sums, and the heading
/// turn it decides is spread over the next block's samples, so that it never jumps. The low-passes are seconds long,
/// so the block's mean loses nothing they would keep.
///
/// Without a magnetometer (or with `useMagnetometer` false) it runs 6D and `δ` stays at its start value.
public struct AttitudeFilter: Sendable {
    /// Filter parameters. Every default is a physical quantity (a time constant in seconds, a threshold in sensor
    /// units) chosen for consumer and research MEMS IMUs in general; none is fitted to any one recording.
    public struct Configuration: Sendable, Hashable {
        /// Use magnetometer readings when samples carry them.
        public var useMagnetometer: Bool
        /// Time constant of the accelerometer low-pass in the almost-inertial frame, s. Longer rejects more of the
        /// device's own acceleration; shorter follows gyroscope drift more tightly. 3 s spans the accelerations of
        /// hand and body motion, while MEMS gyroscope drift over 3 s stays well under a tenth of a degree.
        public var accelTimeConstant: Double
        /// Time constant of the magnetic heading correction, s. The magnetometer is noisier and more often disturbed
        /// than the accelerometer, so it gets a longer time constant.
        public var magTimeConstant: Double
        /// Time constant with which the bias follows the gyroscope mean at rest, s.
        public var restBiasTimeConstant: Double
        /// Time constant of the bias estimate in motion, s. Long, because the accelerometer's correction rates carry
        /// residual motion; bias changes with temperature over minutes.
        public var motionBiasTimeConstant: Double
        /// Time constant of the gyroscope scale-factor estimate during fast rotation, s (0 turns it off). Of the
        /// order of the low-pass, so that one bout of fast motion teaches it; the estimate is bounded by
        /// `maxScaleError`.
        public var scaleTimeConstant: Double
        /// Rotation rate below which the scale factors are hardly learned, rad/s (1 rad/s = 57 °/s: slower motion
        /// hardly shows a scale error, and the corrections are then dominated by other errors).
        public var scaleReferenceRate: Double
        /// Largest scale-factor error accepted per axis, relative (3 %: the sensitivity tolerance of consumer MEMS
        /// gyroscopes).
        public var maxScaleError: Double
        /// Largest bias magnitude accepted per axis, rad/s (MEMS gyroscopes: a few °/s at most).
        public var maxBias: Double
        /// Rest: largest RMS deviation (over a block) of the gyroscope from its short-term mean, rad/s (2 °/s: above
        /// sensor noise, below any deliberate motion).
        public var restGyroThreshold: Double
        /// Rest: largest RMS deviation (over a block) of the accelerometer from its short-term mean, m/s².
        public var restAccelThreshold: Double
        /// Rest: how long both must stay under their thresholds, s.
        public var restMinimumDuration: Double
        /// Magnetic disturbance: tolerated relative change of field strength (the Earth field is constant in a room).
        public var magNormTolerance: Double
        /// Magnetic disturbance: tolerated change of dip angle, rad.
        public var magDipTolerance: Double
        /// A new steady field replaces the reference after this many seconds…
        public var magNewFieldTime: Double
        /// …during which the device turned at least this far, rad.
        public var magNewFieldRotation: Double
        /// Time constant of the online hard-iron estimate, s: how long the readings it fits are remembered. Long
        /// enough to span turns about every axis, short enough that a magnet attached (or removed) is learned within
        /// seconds of turning (0 turns the estimate off).
        public var hardIronTimeConstant: Double
        /// The hard-iron estimate is trusted once its uncertainty and fit residual are both under this fraction of
        /// the Earth field's strength (relative), and replaces the offset in use when it differs from it by more than
        /// this fraction too (an offset much smaller averages out as the device turns, and one off by a fraction of
        /// a µT would turn the heading by degrees).
        public var hardIronTolerance: Double
        /// Time constant with which the offset in use follows a trusted estimate, s: the estimate's noise is averaged
        /// out, a new magnet is taken over within a few seconds.
        public var hardIronFollowTime: Double
        /// The magnetometer offset known at start, device frame, µT: what is left of the hard iron after the
        /// calibration applied before the filter (zero when a calibration file's `[magn]` section corrected the
        /// samples, or when there is none). The online estimate starts from it.
        public var magOffset: Vector3
        /// Largest rate at which the magnetometer turns the heading once it has converged, rad/s: after a
        /// disturbance the heading re-converges at this rate at most, without jumps.
        public var magMaxHeadingRate: Double
        /// Heading drift of the bias-corrected gyroscope while the magnetometer is not used, rad/s, for the heading
        /// accuracy reported with each frame; the scale-factor uncertainty adds `headingScaleUncertainty` of the
        /// rotation about earth up.
        public var headingDriftRate: Double
        /// The gyroscope's scale-factor uncertainty once learned, relative, for the heading accuracy (0.5 %).
        public var headingScaleUncertainty: Double
        /// The heading accuracy while the magnetometer corrects it, rad (noise and soft iron of a calibrated
        /// magnetometer in a steady field).
        public var headingAccuracyFloor: Double
        /// How long the sensor's readings trail the motion, s: MEMS sensors low-pass their readings on the chip, and
        /// that filter delays them by a millisecond or a few (its group delay). The reported orientation is carried
        /// this far ahead along the bias-corrected rotation rate, so that it is the orientation at the sample's
        /// timestamp rather than that delay before it (0 reports the integrated orientation as it is).
        public var sensorDelay: Double

        public init(
            useMagnetometer: Bool = true,
            accelTimeConstant: Double = 3.0,
            magTimeConstant: Double = 13.0,
            restBiasTimeConstant: Double = 2.0,
            motionBiasTimeConstant: Double = 60.0,
            scaleTimeConstant: Double = 10.0,
            scaleReferenceRate: Double = 1.0,
            maxScaleError: Double = 0.03,
            maxBias: Double = 0.1,
            restGyroThreshold: Double = 2.0 * .pi / 180,
            restAccelThreshold: Double = 0.5,
            restMinimumDuration: Double = 1.5,
            magNormTolerance: Double = 0.1,
            magDipTolerance: Double = 5.0 * .pi / 180,
            magNewFieldTime: Double = 20.0,
            magNewFieldRotation: Double = 2 * .pi,
            hardIronTimeConstant: Double = 5.0,
            hardIronTolerance: Double = 0.08,
            hardIronFollowTime: Double = 6.0,
            magOffset: Vector3 = .zero,
            magMaxHeadingRate: Double = 2.0 * .pi / 180,
            headingDriftRate: Double = 0.05 * .pi / 180,
            headingScaleUncertainty: Double = 0.005,
            headingAccuracyFloor: Double = 2.0 * .pi / 180,
            sensorDelay: Double = 0.002
        ) {
            self.useMagnetometer = useMagnetometer
            self.accelTimeConstant = accelTimeConstant
            self.magTimeConstant = magTimeConstant
            self.restBiasTimeConstant = restBiasTimeConstant
            self.motionBiasTimeConstant = motionBiasTimeConstant
            self.scaleTimeConstant = scaleTimeConstant
            self.scaleReferenceRate = scaleReferenceRate
            self.maxScaleError = maxScaleError
            self.maxBias = maxBias
            self.restGyroThreshold = restGyroThreshold
            self.restAccelThreshold = restAccelThreshold
            self.restMinimumDuration = restMinimumDuration
            self.magNormTolerance = magNormTolerance
            self.magDipTolerance = magDipTolerance
            self.magNewFieldTime = magNewFieldTime
            self.magNewFieldRotation = magNewFieldRotation
            self.hardIronTimeConstant = hardIronTimeConstant
            self.hardIronTolerance = hardIronTolerance
            self.hardIronFollowTime = hardIronFollowTime
            self.magOffset = magOffset
            self.magMaxHeadingRate = magMaxHeadingRate
            self.headingDriftRate = headingDriftRate
            self.headingScaleUncertainty = headingScaleUncertainty
            self.headingAccuracyFloor = headingAccuracyFloor
            self.sensorDelay = sensorDelay
        }
    }

    public let configuration: Configuration

    /// The current device → earth orientation.
    @inlinable public var quaternion: Quaternion { attitude }
    /// The current gyroscope bias estimate, rad/s, in the device frame.
    @inlinable public var gyroBias: Vector3 { bias }

    /// The current estimate of each gyroscope axis's relative scale-factor error (0.01: reads 1 % high).
    @inlinable public var gyroScaleError: Vector3 { scale }

    /// The magnetometer offset (hard iron) subtracted from each reading, device frame, µT: the configured
    /// `magOffset` until the online estimate is trusted, then that estimate.
    @inlinable public var magnetometerOffset: Vector3 { magOffset }

    /// Whether the online hard-iron estimate is trusted now (see ``HardIronEstimator``).
    @inlinable public var hardIronTrusted: Bool { ironTrusted }

    /// The heading accuracy, radians (about one standard deviation); `nil` without a magnetometer (6D: heading is
    /// free).
    @inlinable public var headingAccuracy: Double? { usesMagnetometer ? headingSigma : nil }

    @usableFromInline var attitude: Quaternion = .identity
    @usableFromInline var bias: Vector3 = .zero

    @usableFromInline var qGyro: Quaternion = .identity
    /// Estimated relative scale-factor error of each gyroscope axis.
    @usableFromInline var scale: Vector3 = .zero
    /// The device's axes, each scaled by the gyroscope reading about it, in the almost-inertial frame, passed through
    /// the same low-pass as the accelerometer: how a scale error of each axis shows in the filtered accelerometer.
    @usableFromInline var qInclination: Quaternion = .identity
    /// The heading offset about earth up, as the quaternion `(headingW, 0, 0, headingZ)`.
    @usableFromInline var headingW = 1.0
    @usableFromInline var headingZ = 0.0
    @usableFromInline var headingCount = 0.0
    @usableFromInline var headingElapsed = 0.0
    @usableFromInline var accelFilter: LowPassFilter<Vector3>
    /// The regressors of the gyroscope error estimate, through the accelerometer's low-pass.
    @usableFromInline var regressors: LowPassFilter<GyroErrorRegressors>
    /// The gyroscope's readings over the current block, each times its index in the block (1, 2, …), for the
    /// block's scale regressors (see `closeBlock`; their plain sum is the rest detector's `gyroSum`).
    @usableFromInline var rateMoment = Vector3(0, 0, 0)
    /// R's columns summed over the current block.
    @usableFromInline var columnSumX = Vector3(0, 0, 0)
    @usableFromInline var columnSumY = Vector3(0, 0, 0)
    @usableFromInline var columnSumZ = Vector3(0, 0, 0)
    /// Sum of the accelerometer in the almost-inertial frame over the current block, and how many samples it holds.
    @usableFromInline var accelSum: Vector3 = .zero
    @usableFromInline var accelCount = 0
    /// `qGyro` when the current block started.
    @usableFromInline var blockStart: Quaternion = .identity
    /// `(headingW, 0, 0, headingZ) ⊗ qInclination`, as the last block left them.
    @usableFromInline var qHeadingInclination: Quaternion = .identity
    /// The heading turn decided at the end of the last block, spread over the samples of the next one so that the
    /// heading never jumps: the turn per sample as (cos, sin) of its half angle, and how many samples still take it.
    @usableFromInline var headingStepC = 1.0
    @usableFromInline var headingStepS = 0.0
    @usableFromInline var headingStepsLeft = 0
    /// The whole of that turn, radians, taken into `headingW`, `headingZ` when the block closes.
    @usableFromInline var pendingHeadingTurn = 0.0
    /// The undisturbed readings' horizontal field over the current block (earth frame), their count and duration.
    @usableFromInline var headingSum: Vector3 = .zero
    /// R's columns summed over the current block's samples without a magnetometer reading.
    @usableFromInline var missingRx: Vector3 = .zero
    @usableFromInline var missingRy: Vector3 = .zero
    @usableFromInline var missingRz: Vector3 = .zero
    @usableFromInline var headingN = 0.0
    @usableFromInline var headingTime = 0.0
    /// `qInclination`'s rotation matrix, by rows, as the last block left it.
    @usableFromInline var inclinationX = Vector3(1, 0, 0)
    @usableFromInline var inclinationY = Vector3(0, 1, 0)
    @usableFromInline var inclinationZ = Vector3(0, 0, 1)
    /// Whether the latest magnetometer reading was disturbed.
    @usableFromInline var magDisturbedNow = false
    @usableFromInline var blockTime = 0.0
    @usableFromInline var blockCount = 0
    /// The most samples in a block, and its longest duration, s: the corrections run once per block (see the
    /// type's description), of as many samples as the nominal sample interval allows, 16 at most (at 285 Hz 16 samples
    /// are 56 ms; at 100 Hz a block holds 6 samples, at 10 Hz one).
    @usableFromInline static let regressorBlock = 16
    @usableFromInline static let longestBlock = 0.06
    /// Samples in the current block, from the nominal sample interval; it changes only when a block closes.
    @usableFromInline var blockLength = 1
    @usableFromInline var rest: RestDetector
    @usableFromInline var magDetector: MagneticDisturbanceDetector
    @usableFromInline var hardIron: HardIronEstimator
    @usableFromInline var magOffset: Vector3
    @usableFromInline var ironTrusted = false
    /// Whether the offset in use is following the trusted estimate (from a significant difference until it is close).
    @usableFromInline var ironFollowing = false
    /// The share of recent readings (time constant 2 s) that the disturbance detector rejected.
    @usableFromInline var disturbedShare = 0.0
    /// How many of the current block's readings the detector rejected.
    @usableFromInline var disturbedCount = 0.0
    /// Reciprocals of time constants divided by on every sample.
    @usableFromInline let inverseMagTimeConstant: Double
    @usableFromInline let inverseMotionBiasTimeConstant: Double
    @usableFromInline let inverseRestBiasTimeConstant: Double
    /// Half the sensor's delay, s.
    @usableFromInline let halfSensorDelay: Double
    /// Whether a magnetometer reading has been fused.
    @usableFromInline var usesMagnetometer = false
    /// The heading accuracy, rad.
    @usableFromInline var headingSigma = Double.pi
    /// The heading innovation (the magnetometer's heading minus the estimate), low-passed as the heading is, rad.
    @usableFromInline var innovation = 0.0
    @usableFromInline var started = false
    /// The latest sample's gyroscope and accelerometer, and whether its magnetometer reading was disturbed.
    @usableFromInline var lastGyro = Vector3(0, 0, 0)
    @usableFromInline var lastAccel = Vector3(0, 0, 0)
    @usableFromInline var lastAccelNorm2 = 0.0
    @usableFromInline var lastMagDisturbed = false
    @usableFromInline var startTime = 0.0
    @usableFromInline var lastTime = 0.0
    @usableFromInline var elapsed = 0.0
    @usableFromInline var nominalInterval = 0.0

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
        accelFilter = LowPassFilter(timeConstant: configuration.accelTimeConstant)
        regressors = LowPassFilter(timeConstant: configuration.accelTimeConstant)
        rest = RestDetector(
            gyroThreshold: configuration.restGyroThreshold, accelThreshold: configuration.restAccelThreshold,
            minimumDuration: configuration.restMinimumDuration, filterTimeConstant: 0.5,
            maximumMeanRate: configuration.maxBias)
        magDetector = MagneticDisturbanceDetector(
            normTolerance: configuration.magNormTolerance, dipTolerance: configuration.magDipTolerance,
            newFieldTime: configuration.magNewFieldTime, newFieldRotation: configuration.magNewFieldRotation)
        hardIron = HardIronEstimator(timeConstant: configuration.hardIronTimeConstant)
        inverseMagTimeConstant = 1 / configuration.magTimeConstant
        inverseMotionBiasTimeConstant = 1 / configuration.motionBiasTimeConstant
        inverseRestBiasTimeConstant = 1 / configuration.restBiasTimeConstant
        halfSensorDelay = max(configuration.sensorDelay, 0) / 2
        magOffset = configuration.magOffset
    }

    /// Forgets the orientation and bias; the next sample initialises the filter again.
    public mutating func reset() {
        self = AttitudeFilter(configuration: configuration)
    }

    /// Feeds one sample and returns the estimate after it.
    ///
    /// Degenerate input never produces NaN: non-finite vectors count as missing, a zero or missing acceleration
    /// corrects nothing, a repeated or backwards timestamp integrates nothing, and across a gap longer than one
    /// second only one nominal sample interval is integrated (the gyroscope is unknown in between) and the
    /// accelerometer and heading averages start afresh, re-anchoring the attitude.
    @inlinable
    @discardableResult
    public mutating func update(_ sample: MotionSample) -> AttitudeEstimate {
        fuse(sample)
        return estimate
    }

    /// Feeds one sample, as ``update(_:)`` does, without building the estimate: read ``quaternion`` (or
    /// ``estimate``) after it. For callers that want only the orientation of every sample.
    @inlinable @inline(__always)
    public mutating func fuse(_ sample: MotionSample) {
        // Literal zeros: `Vector3.zero` is a global of another module, read through an accessor each time.
        var gyro = sample.gyro
        var accel = sample.accel
        // x − x is 0 for every finite x and NaN otherwise: one test for all six (no branch per component).
        let check =
            (gyro.x - gyro.x) + (gyro.y - gyro.y) + (gyro.z - gyro.z) + (accel.x - accel.x) + (accel.y - accel.y)
            + (accel.z - accel.z)
        if check != 0 {
            if !gyro.isFinite { gyro = Vector3(0, 0, 0) }
            if !accel.isFinite { accel = Vector3(0, 0, 0) }
        }
        var mag: Vector3? = nil
        if configuration.useMagnetometer, let m = sample.mag {
            // Finite and not zero in one test: a NaN fails both comparisons, an infinity the second.
            let n2 = m.squaredNorm
            if n2 > 1e-12, n2 < .infinity {
                mag = m
                usesMagnetometer = true
            }
        }
        // Squared: the checks below compare it with squared bounds, so no square root is taken.
        let accelNorm2 = accel.squaredNorm

        guard started else {
            if accelNorm2 > 1e-18, sample.time.isFinite {
                start(accel: accel, mag: mag, time: sample.time)
            }
            remember(gyro: gyro, accel: accel, accelNorm2: accelNorm2, magDisturbed: false)
            return
        }

        // Sample interval.
        var dt = 0.0
        if sample.time.isFinite, sample.time > lastTime {
            dt = sample.time - lastTime
            lastTime = sample.time
            if dt > 1 {
                // The gyroscope is unknown across the gap: start the accelerometer and heading averages afresh.
                dt = nominalInterval
                accelFilter.reset()
                regressors.reset()
                rest.clearBlock()
                rateMoment = Vector3(0, 0, 0)
                columnSumX = Vector3(0, 0, 0)
                columnSumY = Vector3(0, 0, 0)
                columnSumZ = Vector3(0, 0, 0)
                accelSum = .zero
                accelCount = 0
                hardIron.clearBlock()
                blockStart = qGyro
                headingStepsLeft = 0
                disturbedCount = 0
                headingSum = .zero
                missingRx = .zero
                missingRy = .zero
                missingRz = .zero
                headingN = 0
                headingTime = 0
                blockTime = 0
                blockCount = 0
                headingCount = 0
                headingElapsed = 0
            } else {
                nominalInterval = nominalInterval == 0 ? dt : nominalInterval + (dt - nominalInterval) * 0.01
            }
        }
        guard dt > 0 else {
            attitude = Self.nearUnit(qHeadingInclination * qGyro)
            remember(gyro: gyro, accel: accel, accelNorm2: accelNorm2, magDisturbed: false)
            return
        }
        elapsed += dt

        // Rest detection: sums, judged when the block closes (the gyroscope's sum serves the scale regressors too).
        rest.add(gyro: gyro, accel: accel)

        // Gyroscope strapdown integration.
        let rate = gyro - bias - Vector3(scale.x * gyro.x, scale.y * gyro.y, scale.z * gyro.z)
        let step = Self.exponential(rate * dt)
        // Normalised once per block: a product of unit quaternions stays of unit length to rounding.
        let g = qGyro * step
        qGyro = g

        // The almost-inertial frame's axes (R = qGyro's rotation matrix, by columns): for the accelerometer, the
        // hard-iron fit, the magnetometer's heading and the gyroscope error regressors (R·v as cx·v.x + cy·v.y +
        // cz·v.z costs half a quaternion rotation once R is known).
        let (cx, cy, cz) = Self.columns(g)

        // Per sample, only sums in the almost-inertial frame, where gravity and the Earth field stand still: so their
        // mean over a block of a few samples (tens of milliseconds) loses nothing that the accelerometer's low-pass
        // (seconds) or the heading's (seconds) would keep, and every correction runs once per block on that mean.
        // No gating of the accelerometer: the device's own accelerations average out only if every sample is taken.
        if accelNorm2 > 1e-18 {
            accelSum = accelSum + cx * accel.x + cy * accel.y + cz * accel.z
            accelCount += 1
        }
        if let raw = mag {
            // Each reading is judged on its own (a disturbance can last a few samples); the undisturbed ones are
            // summed, earth frame, for the block's heading correction. R·(m − o) serves the hard-iron fit too (it
            // wants R·m: the block's R·o is added back when the block closes, o being fixed within a block).
            let m = raw - magOffset
            let f = cx * m.x + cy * m.y + cz * m.z
            hardIron.add(raw, rm: f, dt: dt)
            // In the earth frame (up to heading) the field's upward component is the inclination's third row times
            // f, and its strength that of m (a rotation keeps it).
            let up = inclinationZ.dot(f)
            let squaredNorm = m.squaredNorm
            magDisturbedNow = magDetector.judge(squaredNorm: squaredNorm, up: up, rotationVector: rate * dt, dt: dt)
            if magDisturbedNow {
                disturbedCount += 1
            } else if squaredNorm - up * up > 1e-12 * squaredNorm {
                headingSum = headingSum + f
                headingN += 1
                headingTime += dt
            }
        } else if configuration.useMagnetometer {
            // R's columns are summed for the gyroscope errors over every sample; the hard-iron fit wants them over
            // the samples with a reading.
            missingRx = missingRx + cx
            missingRy = missingRy + cy
            missingRz = missingRz + cz
        }
        // The regressors: R's columns (also the hard-iron fit's ΣR), summed; each times the rate about its axis,
        // from these sums and R at the block's two ends, when it closes.
        columnSumX = columnSumX + cx
        columnSumY = columnSumY + cy
        columnSumZ = columnSumZ + cz
        blockCount += 1
        rateMoment = rateMoment + gyro * Double(blockCount)
        blockTime += dt
        // The orientations are taken into locals and stored once: reading back a value just stored in pieces of
        // other sizes stalls the processor.
        var hi = qHeadingInclination
        if headingStepsLeft > 0 {
            // One step of the heading turn, about earth up; `headingW`, `headingZ` take the whole turn when the
            // block closes.
            headingStepsLeft -= 1
            hi = Self.headingTimes(hi, w: headingStepC, z: headingStepS)
            qHeadingInclination = hi
        }
        var orientation: Quaternion
        if blockCount >= blockLength {
            closeBlock()
            orientation = qHeadingInclination * qGyro
        } else {
            orientation = hi * g
        }
        if halfSensorDelay > 0 {
            // Carried ahead by the sensor's delay τ: ⊗ exp(ω τ), by a unit quaternion whose vector part is the half
            // angle v = ω τ / 2 (a degree or less): w = √(1 − |v|²) to the |v|⁴ term, of unit length to |v|⁶/8;
            // normalised exactly beyond 0.1 rad (a saturated gyroscope).
            let v = rate * halfSensorDelay
            let a = v.squaredNorm
            var ahead = Quaternion(w: 1 - a * (0.5 + 0.125 * a), x: v.x, y: v.y, z: v.z)
            if a > 0.01 { ahead = Self.unit(ahead) }
            orientation = orientation * ahead
        }
        attitude = orientation
        remember(gyro: gyro, accel: accel, accelNorm2: accelNorm2, magDisturbed: mag != nil && magDisturbedNow)
    }

    /// Keeps what ``estimate`` reports of the latest sample besides the filter's state.
    @inlinable @inline(__always)
    mutating func remember(gyro: Vector3, accel: Vector3, accelNorm2: Double, magDisturbed: Bool) {
        lastGyro = gyro
        lastAccel = accel
        lastAccelNorm2 = accelNorm2
        lastMagDisturbed = magDisturbed
    }

    /// Runs the corrections on the block's sums (the accelerometer, the magnetometer's heading and disturbance
    /// judgement, the gyroscope errors in motion, the hard-iron estimate) and starts a new block.
    @usableFromInline
    mutating func closeBlock() {
        let time = blockTime
        // The next block's length (a sample interval of a second or more, a gap, makes it one sample).
        blockLength = max(1, min(Self.regressorBlock, Int((Self.longestBlock / max(nominalInterval, 1e-6)).rounded())))
        let sampleInterval = time / Double(blockCount)
        // Rest, and the rest bias: the gyroscope's short-term mean.
        let rateSum = rest.gyroSum
        rest.closeBlock(time: time)
        let resting = rest.isResting
        if resting {
            bias = clampBias(bias + (rest.gyroMean - bias) * min(time * inverseRestBiasTimeConstant, 1))
        }
        qGyro = Self.nearUnit(qGyro)
        // The scale regressors summed over the block's samples i = 1 … n, with R taken as varying linearly between
        // its values at the block's start (R₀) and end (Rₙ): ΣRᵢ·eₖ·ωᵢₖ = R₀·eₖ·Σωᵢₖ + (Rₙ − R₀)·eₖ·Σ(i/n)·ωᵢₖ. The
        // block turns by a few degrees at most, so R's departure from a straight line (second order in that turn)
        // is negligible for an estimate that averages over seconds. (The hard-iron fit needs ΣRᵢ exactly, consistent
        // with its ΣRᵢ·mᵢ: those are summed per sample.)
        let (r0x, r0y, r0z) = Self.columns(blockStart)
        let (rnx, rny, rnz) = Self.columns(qGyro)
        let moment = rateMoment * (1 / Double(blockCount))
        let regressorSum = GyroErrorRegressors(
            biasX: columnSumX, biasY: columnSumY, biasZ: columnSumZ,
            scaleX: r0x * rateSum.x + (rnx - r0x) * moment.x, scaleY: r0y * rateSum.y + (rny - r0y) * moment.y,
            scaleZ: r0z * rateSum.z + (rnz - r0z) * moment.z)
        rateMoment = Vector3(0, 0, 0)
        columnSumX = Vector3(0, 0, 0)
        columnSumY = Vector3(0, 0, 0)
        columnSumZ = Vector3(0, 0, 0)
        if hardIron.blockN > 0 {
            hardIron.blockRx = regressorSum.biasX - missingRx
            hardIron.blockRy = regressorSum.biasY - missingRy
            hardIron.blockRz = regressorSum.biasZ - missingRz
        }
        missingRx = Vector3(0, 0, 0)
        missingRy = Vector3(0, 0, 0)
        missingRz = Vector3(0, 0, 0)
        // The previous block's heading turn is complete.
        turnHeading(by: pendingHeadingTurn)
        pendingHeadingTurn = 0
        // The block's rotation of the device, in the almost-inertial frame: qGyro ⊗ start⁻¹, its vector part twice.
        let s = blockStart
        let turn =
            Vector3(
                s.w * qGyro.x - s.x * qGyro.w - s.y * qGyro.z + s.z * qGyro.y,
                s.w * qGyro.y + s.x * qGyro.z - s.y * qGyro.w - s.z * qGyro.x,
                s.w * qGyro.z - s.x * qGyro.y + s.y * qGyro.x - s.z * qGyro.w) * 2
        blockStart = qGyro

        // Inclination from the accelerometer, low-passed in the almost-inertial frame.
        var correction = Vector3(0, 0, 0)
        if accelCount > 0 {
            let filtered = accelFilter.update(
                accelSum * (1 / Double(accelCount)), dt: time, weight: Double(accelCount))
            let v = qInclination.rotate(filtered)
            let n2 = v.squaredNorm
            if n2 > 1e-18, n2.isFinite {
                let up = v * (1 / n2.squareRoot())
                // Shortest rotation taking `up` to earth up: axis up × z = (up.y, −up.x, 0), angle acos(up.z).
                var c: Quaternion
                if up.z > 0.9999 {
                    // Under 0.8°, the usual case: half the sine stands in for the sine of the half angle (relative
                    // angle error below θ²/12 < 2·10⁻⁵, and the next block corrects what is left).
                    c = Quaternion(w: 1, x: up.y / 2, y: -up.x / 2, z: 0)
                } else if up.z > -1 + 1e-9 {
                    c = Self.unit(Quaternion(w: 1 + up.z, x: up.y, y: -up.x, z: 0))
                } else {
                    c = Quaternion(w: 0, x: 1, y: 0, z: 0)
                }
                qInclination = Self.nearUnit(c * qInclination)
                // Small-angle rotation vector of the correction (earth frame).
                correction = Vector3(c.x, c.y, 0) * 2
            }
        }
        accelSum = Vector3(0, 0, 0)
        accelCount = 0

        // Heading from the magnetometer: the block's mean field, almost-inertial frame, offset removed.
        var headingCorrected = false
        var headingTurn = 0.0
        let q6 = qInclination * qGyro
        let learning = !resting && elapsed > configuration.accelTimeConstant
        if headingN > 0 {
            // Residual heading: the angle that still turns the block's mean horizontal field, after the current
            // heading, to north.
            // The block's mean field, earth frame up to heading, by the block's inclination (not yet corrected).
            let ex = inclinationX.dot(headingSum)
            let ey = inclinationY.dot(headingSum)
            let cosH = headingW * headingW - headingZ * headingZ
            let sinH = 2 * headingW * headingZ
            let error = Self.angle(cosH * ex - sinH * ey, sinH * ex + cosH * ey)
            headingCorrected = true
            if headingElapsed < configuration.magTimeConstant {
                // Warm-up: the running mean of the heading, so the first readings count fully.
                headingCount += headingN
                headingElapsed += headingTime
                let gain = max(headingN / headingCount, headingTime * inverseMagTimeConstant)
                headingTurn = error * gain
                headingSigma += (configuration.headingAccuracyFloor - headingSigma) * gain
            } else {
                // Converged: a first-order low-pass, its step bounded so that re-converging after a disturbance
                // never jumps.
                let limit = configuration.magMaxHeadingRate * headingTime
                let magGain = min(headingTime * inverseMagTimeConstant, 1)
                let delta = max(-limit, min(limit, error * magGain))
                headingTurn = delta
                // The heading correction (9D), about earth up, directly in the device frame, at the rate of the
                // per-sample step it stands for.
                if learning, delta != 0 {
                    let gainBias = sampleInterval * inverseMotionBiasTimeConstant
                    bias = clampBias(bias - q6.inverseRotate(Vector3(0, 0, delta)) * gainBias)
                }
                // The accuracy relaxes towards the floor, or towards the mean innovation where that is larger (a
                // heading still converging after a disturbance): the innovation's noise averages out in the heading
                // as it does here.
                innovation += (error - innovation) * magGain
                headingSigma += (max(configuration.headingAccuracyFloor, abs(innovation)) - headingSigma) * magGain
            }
        }
        headingSum = Vector3(0, 0, 0)
        headingN = 0
        headingTime = 0
        if usesMagnetometer, !headingCorrected {
            // Held on the gyroscope: the heading accuracy degrades with its drift and scale uncertainty; the turn
            // about earth up is the block's turn's vertical component.
            let upTurn = qInclination.rotate(turn).z
            headingSigma = min(
                .pi,
                headingSigma + configuration.headingDriftRate * time + configuration.headingScaleUncertainty
                    * abs(upTurn))
        }

        // Gyroscope errors in motion. A bias b and relative scale errors s make the almost-inertial frame turn
        // against space at R·(b + s ⊙ ω) (R: device → almost-inertial); the accelerometer's correction is that rate
        // through its low-pass, horizontal part only. So each unknown has a regressor, R's column (bias) or the
        // column times the rate about its axis (scale), filtered exactly as the accelerometer is; the correction
        // rate is their sum weighted by the remaining errors, and a least-mean-squares step removes them.
        // The regressors change at the pace of the rotation and are wanted at the pace of the low-pass (seconds):
        // they are averaged over the block, and the low-pass and the step run once per block.
        let r = regressors.update(
            regressorSum * (1 / Double(blockCount)), dt: time, weight: Double(blockCount))
        if learning {
            // The correction rate in the almost-inertial frame, and its up direction (not observed).
            let y = qInclination.inverseRotate(correction) * (1 / time)
            let u = qInclination.inverseRotate(Vector3(0, 0, 1))
            func horizontal(_ v: Vector3) -> Vector3 { v - u * u.dot(v) }
            let gainBias = time / configuration.motionBiasTimeConstant
            bias = clampBias(
                bias
                    - Vector3(horizontal(r.biasX).dot(y), horizontal(r.biasY).dot(y), horizontal(r.biasZ).dot(y))
                    * gainBias)
            if configuration.scaleTimeConstant > 0 {
                let ax = horizontal(r.scaleX)
                let ay = horizontal(r.scaleY)
                let az = horizontal(r.scaleZ)
                // Normalised step: time constant `scaleTimeConstant` once the rotation is well above the
                // reference rate.
                let r0 = configuration.scaleReferenceRate
                let gain =
                    time / configuration.scaleTimeConstant
                    / (r0 * r0 + ax.squaredNorm + ay.squaredNorm + az.squaredNorm)
                let limit = configuration.maxScaleError
                scale = Vector3(
                    max(-limit, min(limit, scale.x - gain * ax.dot(y))),
                    max(-limit, min(limit, scale.y - gain * ay.dot(y))),
                    max(-limit, min(limit, scale.z - gain * az.dot(y))))
            }
        }
        blockTime = 0
        blockCount = 0
        if hardIron.blockN > 0 {
            // The share of recent readings (time constant 2 s) that the disturbance detector rejected.
            disturbedShare +=
                (disturbedCount / hardIron.blockN - disturbedShare) * min(hardIron.blockTime * 0.5, 1)
            let undisturbed = hardIron.blockN - disturbedCount
            magDetector.follow(count: undisturbed, time: hardIron.blockTime * undisturbed / hardIron.blockN)
            disturbedCount = 0
            // The block summed R·(m − o): R·o back, for the fit's R·m.
            let o = magOffset
            hardIron.blockRM =
                hardIron.blockRM + hardIron.blockRx * o.x + hardIron.blockRy * o.y + hardIron.blockRz * o.z
        }
        if usesMagnetometer, configuration.hardIronTimeConstant > 0 {
            updateMagOffset()
        } else {
            hardIron.clearBlock()
        }
        // The heading turn, spread over the next block's samples.
        if headingTurn != 0 {
            let h = headingTurn / Double(2 * blockLength)
            (headingStepC, headingStepS) = Self.cosineAndSine(h)
            headingStepsLeft = blockLength
            pendingHeadingTurn = headingTurn
        }
        // (headingW, 0, 0, headingZ) ⊗ qInclination, written out: half the products of a general one.
        qHeadingInclination = Self.headingTimes(qInclination, w: headingW, z: headingZ)
        setInclinationMatrix()
    }

    /// `qInclination`'s rotation matrix, by rows (the columns of its transpose, the conjugate's matrix), for the
    /// per-sample rotations of the block.
    @inlinable
    mutating func setInclinationMatrix() {
        (inclinationX, inclinationY, inclinationZ) = Self.columns(qInclination.conjugate)
    }

    /// The columns of `q`'s rotation matrix.
    @inlinable @inline(__always)
    static func columns(_ q: Quaternion) -> (Vector3, Vector3, Vector3) {
        (
            Vector3(1 - 2 * (q.y * q.y + q.z * q.z), 2 * (q.x * q.y + q.w * q.z), 2 * (q.x * q.z - q.w * q.y)),
            Vector3(2 * (q.x * q.y - q.w * q.z), 1 - 2 * (q.x * q.x + q.z * q.z), 2 * (q.y * q.z + q.w * q.x)),
            Vector3(2 * (q.x * q.z + q.w * q.y), 2 * (q.y * q.z - q.w * q.x), 1 - 2 * (q.x * q.x + q.y * q.y))
        )
    }

    /// `(w, 0, 0, z) ⊗ p`.
    @inlinable @inline(__always)
    static func headingTimes(_ p: Quaternion, w hw: Double, z hz: Double) -> Quaternion {
        Quaternion(
            w: hw * p.w - hz * p.z, x: hw * p.x - hz * p.y, y: hw * p.y + hz * p.x, z: hw * p.z + hz * p.w)
    }

    /// Closes the hard-iron estimator's block and, when its estimate is trusted, moves the offset in use towards it.
    @usableFromInline
    mutating func updateMagOffset() {
        let time = hardIron.blockTime
        let reference = magDetector.referenceNorm
        let tolerance = configuration.hardIronTolerance * reference
        guard hardIron.closeBlock(changeThreshold: tolerance, changeTime: 0.25) else {
            ironTrusted = false
            return
        }
        // The implied Earth field, in the earth frame, must have the reference's strength and dip.
        let field = qInclination.rotate(hardIron.field)
        let fieldNorm = field.norm
        let dip = (
            cos: (field.x * field.x + field.y * field.y).squareRoot() / max(fieldNorm, 1e-9),
            sin: -field.z / max(fieldNorm, 1e-9)
        )
        let fits = hardIron.uncertainty < tolerance && hardIron.residual < tolerance
        let matches =
            abs(fieldNorm - reference) < configuration.magNormTolerance * reference
            && MagneticDisturbanceDetector.within(dip, magDetector.referenceDip, magDetector.cosDipTolerance)
        // A field that stays fixed in space while the device turns every way, to within half the tolerance, is the
        // Earth field even where it differs from the detector's reference (taken from a first reading that a
        // magnet or a poor first inclination spoilt): it becomes the reference.
        let convincing = hardIron.uncertainty < tolerance / 2 && hardIron.residual < tolerance / 2
        ironTrusted = fits && (matches || convincing)
        if ironTrusted, !matches {
            magDetector.replaceReference(norm: fieldNorm, dip: dip)
        }
        // The offset in use changes only while the field it corrects is rejected, and for a significant difference
        // (a magnet attached or removed): an offset off by a fraction of a µT turns the heading by degrees, more
        // than the estimate's own bias would fix, and a field disturbed in the earth frame (a magnet passed) must
        // not be mistaken for one attached.
        let difference = (hardIron.offset - magOffset).norm
        if !ironTrusted || difference < tolerance / 4 {
            ironFollowing = false
        } else if difference > tolerance, disturbedShare > 0.5 {
            ironFollowing = true
        }
        if ironFollowing {
            magOffset = magOffset + (hardIron.offset - magOffset) * min(time / configuration.hardIronFollowTime, 1)
        }
    }

    @usableFromInline
    mutating func start(accel: Vector3, mag: Vector3?, time: Double) {
        started = true
        startTime = time
        lastTime = time
        qGyro = .identity
        accelFilter.update(accel, dt: 0)
        if let up = accel.normalized {
            qInclination = Quaternion(from: up, to: .unitZ)
        }
        if let raw = mag {
            let e = qInclination.rotate(raw - magOffset)
            let norm = e.norm
            let dip = (cos: (e.x * e.x + e.y * e.y).squareRoot() / norm, sin: -e.z / norm)
            _ = magDetector.update(norm: norm, dip: dip, rotationVector: .zero, dt: 0)
            if e.x * e.x + e.y * e.y > 0 {
                turnHeading(by: atan2(e.x, e.y))
                headingCount = 1
                headingSigma = configuration.headingAccuracyFloor * 5
            }
        }
        qHeadingInclination = Self.headingTimes(qInclination, w: headingW, z: headingZ)
        attitude = qHeadingInclination.normalized
        setInclinationMatrix()
    }

    /// `q` scaled to unit length (one division); the identity if that is impossible.
    @inlinable @inline(__always)
    static func unit(_ q: Quaternion) -> Quaternion {
        let n2 = q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z
        guard n2 > 1e-300, n2.isFinite else { return .identity }
        let s = 1 / n2.squareRoot()
        return Quaternion(w: q.w * s, x: q.x * s, y: q.y * s, z: q.z * s)
    }

    /// `q`, whose length is already close to one, brought closer by one Newton step for 1/√n² (no division, no
    /// square root); the identity for a non-finite input.
    @inlinable @inline(__always)
    static func nearUnit(_ q: Quaternion) -> Quaternion {
        let n2 = q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z
        guard abs(n2 - 1) < 0.01 else { return unit(q) }
        let s = 1.5 - 0.5 * n2
        return Quaternion(w: q.w * s, x: q.x * s, y: q.y * s, z: q.z * s)
    }

    /// `atan2(y, x)`, by its series where the angle is small (the usual case for a correction).
    @inlinable
    static func angle(_ y: Double, _ x: Double) -> Double {
        if x > 0, abs(y) < 0.1 * x {
            let r = y / x
            let r2 = r * r
            return r * (1 - r2 * (1.0 / 3 - r2 * (1.0 / 5 - r2 / 7)))
        }
        return atan2(y, x)
    }

    /// `(cos h, sin h)`, by their series where `h` is small (the usual case: a correction's half angle).
    @inlinable @inline(__always)
    static func cosineAndSine(_ h: Double) -> (Double, Double) {
        guard abs(h) < 0.05 else { return (cos(h), sin(h)) }
        // Error below 3·10⁻¹³ for |h| < 0.05.
        let h2 = h * h
        return (1 - h2 * (0.5 - h2 * (1.0 / 24)), h * (1 - h2 * (1.0 / 6 - h2 * (1.0 / 120))))
    }

    /// Turns the heading offset by `angle` radians about earth up.
    @inlinable
    mutating func turnHeading(by angle: Double) {
        let (c, s) = Self.cosineAndSine(angle / 2)
        let w = headingW * c - headingZ * s
        let z = headingZ * c + headingW * s
        // Already of unit length up to rounding and the series' error: one Newton step for 1/√n² restores it.
        let n2 = w * w + z * z
        let n = abs(n2 - 1) < 0.01 ? 1.5 - 0.5 * n2 : 1 / n2.squareRoot()
        headingW = w * n
        headingZ = z * n
    }

    @inlinable
    func clampBias(_ b: Vector3) -> Vector3 {
        let limit = configuration.maxBias
        return Vector3(max(-limit, min(limit, b.x)), max(-limit, min(limit, b.y)), max(-limit, min(limit, b.z)))
    }

    /// The exponential map, with a series expansion for the small angles of one sample step.
    @inlinable @inline(__always)
    static func exponential(_ v: Vector3) -> Quaternion {
        let a2 = v.squaredNorm
        if a2 < 0.01 {
            // cos(a/2) and sin(a/2)/a to fourth order: error below 1e-12 for a < 0.1 rad.
            // Multiplications by the reciprocals (folded at compile time): a division by 384 is not exact, so the
            // compiler would keep it.
            let c = 1 - a2 * (1.0 / 8) + a2 * a2 * (1.0 / 384)
            let s = 0.5 - a2 * (1.0 / 48) + a2 * a2 * (1.0 / 3840)
            return Quaternion(w: c, x: v.x * s, y: v.y * s, z: v.z * s)
        }
        let a = a2.squareRoot()
        let s = sin(a / 2) / a
        return Quaternion(w: cos(a / 2), x: v.x * s, y: v.y * s, z: v.z * s)
    }

    /// The filter's output after the latest sample: the orientation and what follows from it and that sample.
    @inlinable
    public var estimate: AttitudeEstimate {
        let gyro = lastGyro
        let accel = lastAccel
        let accelNorm2 = lastAccelNorm2
        // Earth down in the device frame: −g times the third row of the attitude's rotation matrix.
        let a = quaternion
        let gravity =
            Vector3(2 * (a.x * a.z - a.w * a.y), 2 * (a.y * a.z + a.w * a.x), 1 - 2 * (a.x * a.x + a.y * a.y))
            * -standardGravity
        // |a| outside 0.9 g … 1.1 g (or zero).
        let low = 0.9 * standardGravity
        let high = 1.1 * standardGravity
        let accelDisturbed = accelNorm2 < 1e-18 || accelNorm2 < low * low || accelNorm2 > high * high
        return AttitudeEstimate(
            quaternion: quaternion,
            rotationRate: gyro - gyroBias,
            gravity: gravity,
            userAcceleration: accel + gravity,
            gyroBias: gyroBias,
            headingAccuracy: headingAccuracy,
            flags: AttitudeFrame.Flags(
                initializing: !started || elapsed < configuration.accelTimeConstant,
                rest: rest.isResting,
                accelDisturbed: accelDisturbed,
                magDisturbed: lastMagDisturbed))
    }
}

/// The filter's output for one sample.
public struct AttitudeEstimate: Sendable, Hashable {
    /// Device → earth (ENU) orientation.
    public var quaternion: Quaternion
    /// Bias-corrected angular rate, device frame, rad/s.
    public var rotationRate: Vector3
    /// Gravity in the device frame, m/s².
    public var gravity: Vector3
    /// Specific force minus gravity's share: the device's own acceleration, device frame, m/s².
    public var userAcceleration: Vector3
    /// Gyroscope bias estimate, rad/s.
    public var gyroBias: Vector3
    /// Heading accuracy, radians (about one standard deviation); `nil` in 6D.
    public var headingAccuracy: Double?
    /// What the filter knew about this sample.
    public var flags: AttitudeFrame.Flags

    public init(
        quaternion: Quaternion, rotationRate: Vector3, gravity: Vector3, userAcceleration: Vector3, gyroBias: Vector3,
        headingAccuracy: Double? = nil, flags: AttitudeFrame.Flags
    ) {
        self.headingAccuracy = headingAccuracy
        self.quaternion = quaternion
        self.rotationRate = rotationRate
        self.gravity = gravity
        self.userAcceleration = userAcceleration
        self.gyroBias = gyroBias
        self.flags = flags
    }
}

/// The six regressors of the gyroscope error estimate (see `AttitudeFilter.update`), as one value for the low-pass.
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

    @inlinable
    static func + (a: Self, b: Self) -> Self {
        Self(
            biasX: a.biasX + b.biasX, biasY: a.biasY + b.biasY, biasZ: a.biasZ + b.biasZ,
            scaleX: a.scaleX + b.scaleX, scaleY: a.scaleY + b.scaleY, scaleZ: a.scaleZ + b.scaleZ)
    }

    @inlinable
    static func - (a: Self, b: Self) -> Self {
        Self(
            biasX: a.biasX - b.biasX, biasY: a.biasY - b.biasY, biasZ: a.biasZ - b.biasZ,
            scaleX: a.scaleX - b.scaleX, scaleY: a.scaleY - b.scaleY, scaleZ: a.scaleZ - b.scaleZ)
    }

    @inlinable
    static func * (a: Self, s: Double) -> Self {
        Self(
            biasX: a.biasX * s, biasY: a.biasY * s, biasZ: a.biasZ * s, scaleX: a.scaleX * s, scaleY: a.scaleY * s,
            scaleZ: a.scaleZ * s)
    }
}
