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
///   the learned Earth field are rejected, and the heading then rides on the gyroscope (`HeadingEstimator`).
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
/// `maxScaleError` (`GyroErrorEstimator`).
///
/// Per sample the filter only integrates the gyroscope and adds the accelerometer, the magnetometer and the regressors,
/// rotated into the almost-inertial frame (where gravity and the Earth field stand still), to sums over a block of
/// up to `regressorBlock` samples (60 ms at most), and judges each magnetometer reading for disturbance; every
/// correction (inclination, heading, gyroscope errors, hard iron) runs once per block on those sums, and the heading
/// turn it decides is spread over the next block's samples, so that it never jumps. The low-passes are seconds long,
/// so the block's mean loses nothing they would keep.
///
/// Without a magnetometer (or with `useMagnetometer` false) it runs 6D and `δ` stays at its start value.
package struct AttitudeFilter: Sendable {
    package let configuration: Configuration

    /// The current device → earth orientation.
    @inlinable package var quaternion: Quaternion { attitude }
    /// The current gyroscope bias estimate, rad/s, in the device frame.
    @inlinable package var gyroBias: Vector3 { gyroErrors.bias }

    /// The current estimate of each gyroscope axis's relative scale-factor error (0.01: reads 1 % high).
    @inlinable package var gyroScaleError: Vector3 { gyroErrors.scale }

    /// The magnetometer offset (hard iron) subtracted from each reading, device frame, µT: the configured
    /// `magOffset` until the online estimate is trusted, then that estimate.
    @inlinable package var magnetometerOffset: Vector3 { magOffset }

    /// Whether the online hard-iron estimate is trusted now (see ``HardIronEstimator``).
    @inlinable package var hardIronTrusted: Bool { ironTrusted }

    /// The heading accuracy, radians (about one standard deviation); `nil` without a magnetometer (6D: heading is
    /// free).
    @inlinable package var headingAccuracy: Double? { usesMagnetometer ? heading.accuracy : nil }

    @usableFromInline var attitude: Quaternion = .identity

    @usableFromInline var qGyro: Quaternion = .identity
    /// The gyroscope's bias and scale-factor errors (see ``GyroErrorEstimator``).
    @usableFromInline var gyroErrors: GyroErrorEstimator
    /// The inclination: the almost-inertial frame → earth up to heading.
    @usableFromInline var qInclination: Quaternion = .identity
    /// The heading offset about earth up, its magnetometer correction and accuracy (see ``HeadingEstimator``).
    @usableFromInline var heading: HeadingEstimator
    @usableFromInline var accelFilter: LowPassFilter<Vector3>
    /// Sum of the accelerometer in the almost-inertial frame over the current block, and how many samples it holds.
    @usableFromInline var accelSum: Vector3 = .zero
    @usableFromInline var accelCount = 0
    /// `qGyro` when the current block started.
    @usableFromInline var blockStart: Quaternion = .identity
    /// `(heading.w, 0, 0, heading.z) ⊗ qInclination`, as the last block left them.
    @usableFromInline var qHeadingInclination: Quaternion = .identity
    /// R's columns summed over the current block's samples without a magnetometer reading.
    @usableFromInline var missingRx: Vector3 = .zero
    @usableFromInline var missingRy: Vector3 = .zero
    @usableFromInline var missingRz: Vector3 = .zero
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
    /// Half the sensor's delay, s.
    @usableFromInline let halfSensorDelay: Double
    /// Whether a magnetometer reading has been fused.
    @usableFromInline var usesMagnetometer = false
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
    /// The next sample follows a marked gap (``markGap()``).
    @usableFromInline var gapPending = false

    package init(configuration: Configuration = .init()) {
        self.configuration = configuration
        accelFilter = LowPassFilter(timeConstant: configuration.accelTimeConstant)
        gyroErrors = GyroErrorEstimator(
            configuration: .init(
                motionBiasTimeConstant: configuration.motionBiasTimeConstant,
                restBiasTimeConstant: configuration.restBiasTimeConstant,
                scaleTimeConstant: configuration.scaleTimeConstant,
                scaleReferenceRate: configuration.scaleReferenceRate,
                maxScaleError: configuration.maxScaleError, maxBias: configuration.maxBias),
            filterTimeConstant: configuration.accelTimeConstant)
        heading = HeadingEstimator(
            configuration: .init(
                timeConstant: configuration.magTimeConstant, maxRate: configuration.magMaxHeadingRate,
                accuracyFloor: configuration.headingAccuracyFloor, driftRate: configuration.headingDriftRate,
                scaleUncertainty: configuration.headingScaleUncertainty))
        rest = RestDetector(
            gyroThreshold: configuration.restGyroThreshold, accelThreshold: configuration.restAccelThreshold,
            minimumDuration: configuration.restMinimumDuration, filterTimeConstant: 0.5,
            maximumMeanRate: configuration.maxBias)
        magDetector = MagneticDisturbanceDetector(
            normTolerance: configuration.magNormTolerance, dipTolerance: configuration.magDipTolerance,
            newFieldTime: configuration.magNewFieldTime, newFieldRotation: configuration.magNewFieldRotation)
        hardIron = HardIronEstimator(timeConstant: configuration.hardIronTimeConstant)
        halfSensorDelay = max(configuration.sensorDelay, 0) / 2
        magOffset = configuration.magOffset
    }

    /// Forgets the orientation and bias; the next sample initialises the filter again.
    package mutating func reset() {
        self = AttitudeFilter(configuration: configuration)
    }

    /// Feeds one sample and returns the estimate after it.
    ///
    /// Degenerate input never produces NaN: non-finite vectors count as missing, a zero or missing acceleration
    /// corrects nothing, a repeated or backwards timestamp integrates nothing, and across a gap longer than one
    /// second (or one marked with ``markGap()``) only one nominal sample interval is integrated (the gyroscope is
    /// unknown in between) and the accelerometer and heading averages start afresh, re-anchoring the attitude.
    @inlinable
    @discardableResult
    package mutating func update(_ sample: MotionSample) -> AttitudeEstimate {
        fuse(sample)
        return estimate
    }

    /// Feeds one sample, as ``update(_:)`` does, without building the estimate: read ``quaternion`` (or
    /// ``estimate``) after it. For callers that want only the orientation of every sample.
    @inlinable @inline(__always)
    package mutating func fuse(_ sample: MotionSample) {
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
        if gapPending, sample.time.isFinite {
            // A marked gap (lost samples, or time going back): whatever the times say, nothing is known in between.
            gapPending = false
            lastTime = sample.time
            dt = restartAcrossGap()
        } else if sample.time.isFinite, sample.time > lastTime {
            dt = sample.time - lastTime
            lastTime = sample.time
            if dt > 1 {
                dt = restartAcrossGap()
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
        let rate = gyroErrors.corrected(gyro)
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
                heading.add(f, dt: dt)
            }
        } else if configuration.useMagnetometer {
            // R's columns are summed for the gyroscope errors over every sample; the hard-iron fit wants them over
            // the samples with a reading.
            missingRx = missingRx + cx
            missingRy = missingRy + cy
            missingRz = missingRz + cz
        }
        // The regressors: R's columns (also the hard-iron fit's ΣR), summed; each times the rate about its axis,
        // from these sums and R at the block's two ends, when it closes. (In this order, the count's increment
        // between the two: the loop runs 4 % faster in 6D than with both sums after it.)
        gyroErrors.add(cx: cx, cy: cy, cz: cz)
        blockCount += 1
        gyroErrors.add(gyro: gyro, index: Double(blockCount))
        blockTime += dt
        // The orientations are taken into locals and stored once: reading back a value just stored in pieces of
        // other sizes stalls the processor.
        var hi = qHeadingInclination
        if heading.stepsLeft > 0 {
            // One step of the heading turn, about earth up; the heading offset takes the whole turn when the block
            // closes.
            heading.stepsLeft -= 1
            hi = Self.headingTimes(hi, w: heading.stepC, z: heading.stepS)
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
            gyroErrors.followRest(mean: rest.gyroMean, time: time)
        }
        qGyro = Self.nearUnit(qGyro)
        // The hard-iron fit's ΣR: the gyroscope error estimate's sums of R's columns, less the samples without a
        // reading. (It needs ΣRᵢ exactly, consistent with its ΣRᵢ·mᵢ: those are summed per sample.)
        if hardIron.block.n > 0 {
            hardIron.block.rx = gyroErrors.columnSumX - missingRx
            hardIron.block.ry = gyroErrors.columnSumY - missingRy
            hardIron.block.rz = gyroErrors.columnSumZ - missingRz
        }
        missingRx = Vector3(0, 0, 0)
        missingRy = Vector3(0, 0, 0)
        missingRz = Vector3(0, 0, 0)
        // The gyroscope error regressors: the block's mean, low-passed as the accelerometer is.
        let regressors = gyroErrors.closeBlock(
            start: blockStart, end: qGyro, rateSum: rateSum, count: blockCount, time: time)
        // The previous block's heading turn is complete.
        heading.completeTurn()
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

        // Heading from the magnetometer: the block's mean field, almost-inertial frame, offset removed, by the block's
        // inclination (not yet corrected).
        let learning = !resting && elapsed > configuration.accelTimeConstant
        var headingTurn = 0.0
        if let c = heading.closeBlock(rowX: inclinationX, rowY: inclinationY) {
            headingTurn = c.turn
            // The converged heading correction (9D), about earth up, directly in the device frame, at the rate of the
            // per-sample step it stands for.
            if c.converged, learning, c.turn != 0 {
                let q6 = qInclination * qGyro
                gyroErrors.learnHeading(turn: q6.inverseRotate(Vector3(0, 0, c.turn)), sampleInterval: sampleInterval)
            }
        } else if usesMagnetometer {
            // Held on the gyroscope: the turn about earth up is the block's turn's vertical component.
            heading.hold(time: time, upTurn: qInclination.rotate(turn).z)
        }

        // Gyroscope errors in motion, from the accelerometer's correction rate in the almost-inertial frame and its up
        // direction (not observed).
        if learning {
            gyroErrors.learn(
                regressors, correctionRate: qInclination.inverseRotate(correction) * (1 / time),
                up: qInclination.inverseRotate(Vector3(0, 0, 1)), time: time)
        }
        blockTime = 0
        blockCount = 0
        if hardIron.block.n > 0 {
            // The share of recent readings (time constant 2 s) that the disturbance detector rejected.
            disturbedShare +=
                (disturbedCount / hardIron.block.n - disturbedShare) * min(hardIron.blockTime * 0.5, 1)
            let undisturbed = hardIron.block.n - disturbedCount
            magDetector.follow(count: undisturbed, time: hardIron.blockTime * undisturbed / hardIron.block.n)
            disturbedCount = 0
            // The block summed R·(m − o): R·o back, for the fit's R·m.
            let o = magOffset
            hardIron.block.rm =
                hardIron.block.rm + hardIron.block.rx * o.x + hardIron.block.ry * o.y + hardIron.block.rz * o.z
        }
        if usesMagnetometer, configuration.hardIronTimeConstant > 0 {
            updateMagOffset()
        } else {
            hardIron.clearBlock()
        }
        // The heading turn, spread over the next block's samples.
        if headingTurn != 0 {
            heading.spread(headingTurn, over: blockLength)
        }
        // (heading.w, 0, 0, heading.z) ⊗ qInclination, written out: half the products of a general one.
        qHeadingInclination = Self.headingTimes(qInclination, w: heading.w, z: heading.z)
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
            heading.start(field: e)
        }
        qHeadingInclination = Self.headingTimes(qInclination, w: heading.w, z: heading.z)
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
    package var estimate: AttitudeEstimate {
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
package struct AttitudeEstimate: Sendable, Hashable {
    /// Device → earth (ENU) orientation.
    package var quaternion: Quaternion
    /// Bias-corrected angular rate, device frame, rad/s.
    package var rotationRate: Vector3
    /// Gravity in the device frame, m/s².
    package var gravity: Vector3
    /// Specific force minus gravity's share: the device's own acceleration, device frame, m/s².
    package var userAcceleration: Vector3
    /// Gyroscope bias estimate, rad/s.
    package var gyroBias: Vector3
    /// Heading accuracy, radians (about one standard deviation); `nil` in 6D.
    package var headingAccuracy: Double?
    /// What the filter knew about this sample.
    package var flags: AttitudeFrame.Flags

    package init(
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
