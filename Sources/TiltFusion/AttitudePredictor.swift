import TiltCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the device will be a moment from now: the attitude carried ahead by the rotation the angular rate and its
/// recent history predict (motion-to-photon prediction, issue 30).
///
/// **What it predicts.** The rotation the device turns through in the next `h` seconds, as a rotation vector in the
/// device frame: `v(h) = g · (h · Σ aᵢ fᵢ + ½ h² · Σ bᵢ fᵢ)`. The features `fᵢ` are the bias-corrected angular rate
/// itself and the same rate through first-order low-passes of a few time constants (``Model/timeConstants``), so
/// `Σ aᵢ fᵢ` is a rate estimate and `Σ bᵢ fᵢ` an angular-acceleration estimate, both from the last ~100 ms; the
/// weights are fitted on recordings (``PredictionFit``) and validated by leaving each recording out
/// (`tilt bench fusion --predict 0.03 --cross-validate`). With ``Model/constantRate`` it is plain
/// constant-angular-velocity prediction, `v = h · ω`. The predicted attitude is `q ⊗ exp(v)`.
///
/// **How far it trusts the rate.** `g` is 1 in motion and falls to 0 while the filter says the device rests (with a
/// time constant of ``restTimeConstant``, so it never steps), and it is scaled by ``motionTrust``, which fades the
/// prediction out where the rate is at the level of sensor noise (``noiseRate``): there the rate is noise, and
/// predicting from it would only add jitter. The predicted rotation is capped at ``maxRate`` × h, the range of common MEMS
/// gyroscopes, so a corrupt sample cannot throw the picture around, and it never points against the rate measured
/// now nor turns more than ``rateLimit`` times as far as that rate would: when the motion stops, the prediction stops
/// with it. Horizons are capped at ``maxHorizon``.
///
/// Time constants are in seconds, so the model holds at any sample rate; the filters follow each sample's own
/// interval. After a gap (``reset()``) the history starts again from the next sample.
package struct AttitudePredictor: Sendable {
    /// The prediction's weights.
    package struct Model: Sendable, Hashable {
        /// The low-passes' time constants, seconds (the features after the rate itself).
        package var timeConstants: [Double]
        /// The rate's weights `aᵢ`: one for the rate, then one per time constant.
        package var rateWeights: [Double]
        /// The angular acceleration's weights `bᵢ`, 1/s: one for the rate, then one per time constant.
        package var accelerationWeights: [Double]

        package init(timeConstants: [Double], rateWeights: [Double], accelerationWeights: [Double]) {
            self.timeConstants = timeConstants
            self.rateWeights = rateWeights
            self.accelerationWeights = accelerationWeights
        }

        /// How many features the model weighs: the rate and each low-pass of it.
        package var featureCount: Int { timeConstants.count + 1 }

        /// Plain constant-angular-velocity prediction: `v = h · ω`.
        package static let constantRate = Model(timeConstants: [], rateWeights: [1], accelerationWeights: [0])

        /// The time constants of the fitted model, seconds.
        package static let fittedTimeConstants = [0.01, 0.03, 0.1]

        /// The weights fitted on the fifteen BROAD trials of `../shared/data/broad` (9D filter, horizons 10 to
        /// 100 ms, rows in motion; the rate weights sum to 1 and the acceleration weights to 0, so a steady turn is
        /// predicted to go on), as `tilt bench fusion --predict 0.03 --cross-validate` prints them; its
        /// held-out table is the check that they carry over to recordings they were not fitted on.
        package static let fitted = Model(
            timeConstants: fittedTimeConstants,
            rateWeights: [3.264, -3.425, 1.375, -0.215],
            accelerationWeights: [-2.138, 5.381, -3.822, 0.580])
    }

    /// The largest horizon predicted, seconds: beyond it the rate says too little about where the device will be.
    package static let maxHorizon = 0.1
    /// The fastest rotation a prediction assumes, rad/s (2000 °/s, the top range of common MEMS gyroscopes).
    package static let maxRate = 2000 * Double.pi / 180
    /// The rate below which the rate is not trusted, rad/s (2 °/s): above a consumer gyroscope's noise and the bias
    /// residue left after its bias is estimated, below any motion a user makes on purpose. On the BROAD trials the
    /// prediction's accuracy hardly moves with it (0.5 … 4 °/s), while the tilt's jitter at rest falls from 1.37× the
    /// unpredicted tilt's (worst trial) at 0.5 °/s to 1.05× at 2 °/s.
    package static let noiseRate = 2 * Double.pi / 180
    /// The most a prediction turns, as a multiple of what the rate measured now turns through in the same time.
    package static let rateLimit = 2.0
    /// How fast the trust in the rate follows rest and motion, seconds.
    package static let restTimeConstant = 0.05

    package let model: Model
    /// The features: the latest rate, then its low-passes.
    package private(set) var features: [Vector3]
    /// The trust in the rate, 0 (at rest) … 1 (in motion).
    package private(set) var trust: Double = 1
    private var lastTime: Double?

    package init(model: Model = .fitted) {
        precondition(
            model.rateWeights.count == model.featureCount && model.accelerationWeights.count == model.featureCount,
            "a prediction model needs one rate and one acceleration weight per feature")
        self.model = model
        features = Array(repeating: .zero, count: model.featureCount)
    }

    /// Forgets the history (after a gap): the next sample starts it again.
    package mutating func reset() {
        lastTime = nil
        for i in features.indices { features[i] = .zero }
    }

    /// The trust in the rate from how fast the device turns: `s² / (s² + r₀²)` with `s` the slowest low-pass of the
    /// rate and `r₀` ``noiseRate``: near 0 where the rate is at the level of sensor noise and bias residue, near 1
    /// in real motion.
    package var motionTrust: Double {
        guard let slow = features.last else { return 1 }
        let s2 = slow.squaredNorm
        let r0 = Self.noiseRate
        return s2 / (s2 + r0 * r0)
    }

    /// Takes the bias-corrected `rate` (device frame, rad/s) of the sample at `time` seconds, and whether the
    /// filter judged the device at rest.
    package mutating func update(rate: Vector3, time: Double, resting: Bool = false) {
        guard rate.x.isFinite, rate.y.isFinite, rate.z.isFinite else { return }
        let dt = lastTime.map { time - $0 } ?? 0
        let first = lastTime == nil || !(dt >= 0 && dt < 1)
        lastTime = time
        features[0] = rate
        for (i, tau) in model.timeConstants.enumerated() {
            if first {
                features[i + 1] = rate
            } else {
                let k = tau > 0 ? 1 - exp(-dt / tau) : 1
                features[i + 1] = features[i + 1] + (rate - features[i + 1]) * k
            }
        }
        let target: Double = resting ? 0 : 1
        if first {
            trust = target
        } else {
            trust += (target - trust) * (1 - exp(-dt / Self.restTimeConstant))
        }
    }

    /// The rotation the device is predicted to turn through in the next `horizon` seconds (capped at
    /// ``maxHorizon``), as a rotation vector in the device frame, radians.
    package func rotation(ahead horizon: Double) -> Vector3 {
        let h = min(max(horizon.isFinite ? horizon : 0, 0), Self.maxHorizon)
        guard h > 0, lastTime != nil else { return .zero }
        var rate = Vector3.zero
        var acceleration = Vector3.zero
        for i in features.indices {
            rate = rate + features[i] * model.rateWeights[i]
            acceleration = acceleration + features[i] * model.accelerationWeights[i]
        }
        var v = (rate * h + acceleration * (0.5 * h * h)) * trust * motionTrust
        // Never against the rate measured now, nor more than `rateLimit` times what it turns through: when the
        // motion stops, the prediction stops with it instead of swinging back.
        let now = features[0]
        let speed = now.norm
        guard speed > 0 else { return .zero }
        let axis = now * (1 / speed)
        let along = v.x * axis.x + v.y * axis.y + v.z * axis.z
        v = axis * max(along, 0) + (v - axis * along)
        let cap = min(Self.rateLimit * speed, Self.maxRate) * h
        let angle = v.norm
        if angle > cap { v = v * (cap / angle) }
        return v
    }

    /// `attitude` (device → earth) carried `horizon` seconds ahead.
    package func predict(_ attitude: Quaternion, ahead horizon: Double) -> Quaternion {
        (attitude * Quaternion(rotationVector: rotation(ahead: horizon))).normalized
    }
}
