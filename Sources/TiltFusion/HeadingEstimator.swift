import TiltCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The attitude filter's heading offset about earth up, `δ`, kept as the quaternion `(w, 0, 0, z)`, corrected from
/// the magnetometer a block of samples at a time, with its accuracy.
///
/// Per sample the undisturbed readings' field, in the almost-inertial frame, is summed (`add`). When the block
/// closes (`closeBlock`) the sum is taken into the earth frame up to heading by the inclination's first two rows, and
/// the residual heading (the angle that still turns the block's mean horizontal field, after the current heading, to
/// north) is corrected: during the first `timeConstant` seconds by the running mean of the heading, so that the first
/// readings count fully; after that by a first-order low-pass (time constant `timeConstant`) whose step is bounded by
/// `maxRate`, so that re-converging after a disturbance never jumps.
///
/// The correction is not taken at once: `spread` divides it into equal steps for the next block's samples, which the
/// filter takes one by one (`stepsLeft`, `stepC`, `stepS`), and `completeTurn` takes the whole turn into `(w, z)` when
/// that block closes.
///
/// The accuracy (about one standard deviation, rad) relaxes towards `accuracyFloor` (or the mean innovation where that
/// is larger) while the magnetometer corrects, and grows with the gyroscope's drift while it does not (`hold`).
@usableFromInline
struct HeadingEstimator: Sendable {
    /// Time constants and bounds (see ``AttitudeFilter/Configuration`` for their meaning).
    @usableFromInline
    struct Configuration: Sendable {
        /// Time constant of the heading correction, s (the filter's `magTimeConstant`).
        @usableFromInline var timeConstant: Double
        /// Largest rate at which a converged heading turns, rad/s (`magMaxHeadingRate`).
        @usableFromInline var maxRate: Double
        /// The accuracy while the magnetometer corrects the heading, rad (`headingAccuracyFloor`).
        @usableFromInline var accuracyFloor: Double
        /// Heading drift of the corrected gyroscope without the magnetometer, rad/s (`headingDriftRate`).
        @usableFromInline var driftRate: Double
        /// The gyroscope's scale-factor uncertainty, relative (`headingScaleUncertainty`).
        @usableFromInline var scaleUncertainty: Double

        @usableFromInline
        init(timeConstant: Double, maxRate: Double, accuracyFloor: Double, driftRate: Double, scaleUncertainty: Double)
        {
            self.timeConstant = timeConstant
            self.maxRate = maxRate
            self.accuracyFloor = accuracyFloor
            self.driftRate = driftRate
            self.scaleUncertainty = scaleUncertainty
        }
    }

    /// A block's correction: the heading turn, rad, and whether the heading had converged (past its warm-up).
    @usableFromInline
    struct Correction: Sendable {
        @usableFromInline var turn: Double
        @usableFromInline var converged: Bool

        @inlinable
        init(turn: Double, converged: Bool) {
            self.turn = turn
            self.converged = converged
        }
    }

    @usableFromInline let configuration: Configuration
    @usableFromInline let inverseTimeConstant: Double
    /// The heading offset, as the quaternion `(w, 0, 0, z)`.
    @usableFromInline var w = 1.0
    @usableFromInline var z = 0.0
    /// The undisturbed readings' field over the current block (almost-inertial frame), their count and duration.
    @usableFromInline var sum: Vector3 = .zero
    @usableFromInline var count = 0.0
    @usableFromInline var time = 0.0
    /// The readings and their duration taken in since the warm-up started.
    @usableFromInline var warmCount = 0.0
    @usableFromInline var warmTime = 0.0
    /// The heading accuracy, rad.
    @usableFromInline var accuracy = Double.pi
    /// The heading innovation (the magnetometer's heading minus the estimate), low-passed as the heading is, rad.
    @usableFromInline var innovation = 0.0
    /// The turn decided at the end of the last block, spread over the samples of the next one: the turn per sample
    /// as (cos, sin) of its half angle, and how many samples still take it.
    @usableFromInline var stepC = 1.0
    @usableFromInline var stepS = 0.0
    @usableFromInline var stepsLeft = 0
    /// The whole of that turn, rad, taken into `w`, `z` by `completeTurn`.
    @usableFromInline var pendingTurn = 0.0

    @usableFromInline
    init(configuration: Configuration) {
        self.configuration = configuration
        inverseTimeConstant = 1 / configuration.timeConstant
    }

    /// Adds one undisturbed reading's field `f` (almost-inertial frame), taken over `dt` seconds.
    @inlinable @inline(__always)
    mutating func add(_ f: Vector3, dt: Double) {
        sum = sum + f
        count += 1
        time += dt
    }

    /// Starts afresh after a gap: drops the block and the steps still to take, and warms up again.
    @inlinable
    mutating func restart() {
        stepsLeft = 0
        sum = .zero
        count = 0
        time = 0
        warmCount = 0
        warmTime = 0
    }

    /// Takes the heading from a first reading's field `e`, earth frame up to heading, with a coarse accuracy.
    mutating func start(field e: Vector3) {
        guard e.x * e.x + e.y * e.y > 0 else { return }
        turn(by: atan2(e.x, e.y))
        warmCount = 1
        accuracy = configuration.accuracyFloor * 5
    }

    /// Takes the whole of the turn spread over the block that has just ended into `w`, `z`.
    @inline(__always)
    mutating func completeTurn() {
        turn(by: pendingTurn)
        pendingTurn = 0
    }

    /// Corrects the heading from the block's readings, given the inclination's first two rows (the earth frame's x and
    /// y axes in the almost-inertial frame), and starts a new block. Returns the turn the correction asks for, or nil
    /// when the block had no undisturbed reading.
    @inline(__always)
    mutating func closeBlock(rowX: Vector3, rowY: Vector3) -> Correction? {
        guard count > 0 else { return nil }
        defer {
            sum = Vector3(0, 0, 0)
            count = 0
            time = 0
        }
        // The block's mean field, earth frame up to heading, by the block's inclination (not yet corrected).
        let ex = rowX.dot(sum)
        let ey = rowY.dot(sum)
        let cosH = w * w - z * z
        let sinH = 2 * w * z
        let error = Self.angle(cosH * ex - sinH * ey, sinH * ex + cosH * ey)
        if warmTime < configuration.timeConstant {
            // Warm-up: the running mean of the heading, so the first readings count fully.
            warmCount += count
            warmTime += time
            let gain = max(count / warmCount, time * inverseTimeConstant)
            accuracy += (configuration.accuracyFloor - accuracy) * gain
            return Correction(turn: error * gain, converged: false)
        }
        // Converged: a first-order low-pass, its step bounded so that re-converging after a disturbance never jumps.
        let limit = configuration.maxRate * time
        let gain = min(time * inverseTimeConstant, 1)
        let delta = max(-limit, min(limit, error * gain))
        // The accuracy relaxes towards the floor, or towards the mean innovation where that is larger (a heading
        // still converging after a disturbance): the innovation's noise averages out in the heading as it does here.
        innovation += (error - innovation) * gain
        accuracy += (max(configuration.accuracyFloor, abs(innovation)) - accuracy) * gain
        return Correction(turn: delta, converged: true)
    }

    /// Held on the gyroscope for a block of `time` seconds that turned by `upTurn` rad about earth up: the accuracy
    /// degrades with the gyroscope's drift and scale uncertainty.
    @inline(__always)
    mutating func hold(time: Double, upTurn: Double) {
        accuracy = min(.pi, accuracy + configuration.driftRate * time + configuration.scaleUncertainty * abs(upTurn))
    }

    /// Spreads `turn` (rad, not zero) over the next `samples` samples.
    @inline(__always)
    mutating func spread(_ turn: Double, over samples: Int) {
        let h = turn / Double(2 * samples)
        (stepC, stepS) = Self.cosineAndSine(h)
        stepsLeft = samples
        pendingTurn = turn
    }

    /// Turns the heading offset by `angle` radians about earth up.
    @inline(__always)
    mutating func turn(by angle: Double) {
        let (c, s) = Self.cosineAndSine(angle / 2)
        let newW = w * c - z * s
        let newZ = z * c + w * s
        // Already of unit length up to rounding and the series' error: one Newton step for 1/√n² restores it.
        let n2 = newW * newW + newZ * newZ
        let n = abs(n2 - 1) < 0.01 ? 1.5 - 0.5 * n2 : 1 / n2.squareRoot()
        w = newW * n
        z = newZ * n
    }

    /// `atan2(y, x)`, by its series where the angle is small (the usual case for a correction).
    @inline(__always)
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
        // Error below 3·10⁻¹¹ (cosine) and 2·10⁻¹³ (sine) for |h| < 0.05.
        let h2 = h * h
        return (1 - h2 * (0.5 - h2 * (1.0 / 24)), h * (1 - h2 * (1.0 / 6 - h2 * (1.0 / 120))))
    }
}
