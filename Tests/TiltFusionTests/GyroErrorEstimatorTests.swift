import Testing
import TiltCore

@testable import TiltFusion

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite struct GyroErrorEstimatorTests {
    static func configuration(motionBias: Double = 60, scale: Double = 10) -> GyroErrorEstimator.Configuration {
        .init(
            motionBiasTimeConstant: motionBias, restBiasTimeConstant: 2, scaleTimeConstant: scale,
            scaleReferenceRate: 1, maxScaleError: 0.03, maxBias: 0.1)
    }

    /// The columns of `q`'s rotation matrix, from the quaternion's own rotation (independent of the filter's formula).
    static func columns(_ q: Quaternion) -> (Vector3, Vector3, Vector3) {
        (q.rotate(.unitX), q.rotate(.unitY), q.rotate(.unitZ))
    }

    @Test func blockSumMatchesThePerSampleRegressors() {
        // One block of 16 samples at 285 Hz turning at about 2 rad/s about a changing axis (6° in the block): the
        // bias regressors are R's columns summed exactly, the scale regressors ΣRᵢ·eₖ·ωᵢₖ from R at the block's ends
        // are within the second-order error of R's straight-line interpolation.
        var estimator = GyroErrorEstimator(configuration: Self.configuration(), filterTimeConstant: 3)
        let dt = 1.0 / 285
        let start = Quaternion(axis: Vector3(1, -2, 0.5), angle: 0.7)
        var q = start
        var exact = GyroErrorRegressors.zero
        var rateSum = Vector3.zero
        var exactAbsoluteRateSum = Vector3.zero
        for i in 1...16 {
            let t = Double(i) * dt
            let gyro = Vector3(2 * cos(3 * t), 1.2 - 4 * t, 0.8 + 5 * t)
            q = q * Quaternion(rotationVector: gyro * dt)
            let (cx, cy, cz) = Self.columns(q)
            estimator.add(cx: cx, cy: cy, cz: cz)
            estimator.add(gyro: gyro, index: Double(i))
            rateSum = rateSum + gyro
            exactAbsoluteRateSum = exactAbsoluteRateSum + Vector3(abs(gyro.x), abs(gyro.y), abs(gyro.z))
            exact =
                exact
                + GyroErrorRegressors(
                    biasX: cx, biasY: cy, biasZ: cz, scaleX: cx * gyro.x, scaleY: cy * gyro.y, scaleZ: cz * gyro.z)
        }
        let sum = estimator.blockSum(start: start, end: q, rateSum: rateSum, count: 16)
        for (a, b) in [(sum.biasX, exact.biasX), (sum.biasY, exact.biasY), (sum.biasZ, exact.biasZ)] {
            #expect((a - b).norm < 1e-12, "bias regressor \(a) against \(b)")
        }
        // R's departure from the straight line between the block's ends is at most about θ²/8 (θ: the block's turn)
        // of a column, so each scale regressor is within that share of Σ|ωᵢₖ|; R₀ alone would be off by about θ/2.
        let theta = (q * start.conjugate).angle
        let (r0x, r0y, r0z) = Self.columns(start)
        let absoluteSum = exactAbsoluteRateSum
        for (k, (a, b, r0)) in [
            (sum.scaleX, exact.scaleX, r0x), (sum.scaleY, exact.scaleY, r0y), (sum.scaleZ, exact.scaleZ, r0z),
        ]
        .enumerated() {
            let rates = [absoluteSum.x, absoluteSum.y, absoluteSum.z][k]
            let rateOnly = [rateSum.x, rateSum.y, rateSum.z][k]
            #expect((a - b).norm < theta * theta / 4 * rates, "scale regressor \(a) against \(b)")
            #expect((a - b).norm < 0.1 * (r0 * rateOnly - b).norm, "no better than R₀ alone")
        }
        // Closing the block starts a new one.
        _ = estimator.closeBlock(start: start, end: q, rateSum: rateSum, count: 16, time: 16 * dt)
        #expect(estimator.columnSumX == Vector3(0, 0, 0) && estimator.rateMoment == Vector3(0, 0, 0))
    }

    /// Runs the estimator on a synthetic motion at 100 Hz, in blocks of 6 samples, with the correction rate the
    /// accelerometer would apply: the almost-inertial frame turns at R·(δb + δs ⊙ ω) (δ: the true errors less the
    /// estimate), and the correction is that rate through the accelerometer's low-pass, against it, horizontal part
    /// only. The low-pass here is the test's own, fed with the exact per-sample rotations.
    static func learn(
        _ estimator: inout GyroErrorEstimator, bias: Vector3, scale: Vector3, duration: Double,
        rate: (Double) -> Vector3
    ) {
        let dt = 0.01
        let block = 6
        let up = Vector3(0, 0, 1)
        var drift = LowPassFilter<Vector3>(timeConstant: 3)
        var q = Quaternion(axis: Vector3(0.3, 1, 0), angle: 0.5)
        var start = q
        var driftSum = Vector3.zero
        var rateSum = Vector3.zero
        var count = 0
        for step in 0..<Int(duration / dt) {
            let omega = rate(Double(step) * dt)
            let gyro = Vector3(omega.x * (1 + scale.x), omega.y * (1 + scale.y), omega.z * (1 + scale.z)) + bias
            q = q * Quaternion(rotationVector: omega * dt)
            let (cx, cy, cz) = columns(q)
            count += 1
            estimator.add(cx: cx, cy: cy, cz: cz)
            estimator.add(gyro: gyro, index: Double(count))
            rateSum = rateSum + gyro
            let db = bias - estimator.bias
            let ds = scale - estimator.scale
            let e = db + Vector3(ds.x * omega.x, ds.y * omega.y, ds.z * omega.z)
            driftSum = driftSum + cx * e.x + cy * e.y + cz * e.z
            guard count == block else { continue }
            let time = Double(block) * dt
            let r = estimator.closeBlock(start: start, end: q, rateSum: rateSum, count: block, time: time)
            let filtered = drift.update(driftSum * (1 / Double(block)), dt: time, weight: Double(block))
            let correction = -(filtered - up * up.dot(filtered))
            estimator.learn(r, correctionRate: correction, up: up, time: time)
            start = q
            driftSum = .zero
            rateSum = .zero
            count = 0
        }
    }

    @Test func recoversABiasInASlowTumble() {
        // Never still: a tumble about changing axes (under 0.6 rad/s, where scale errors hardly show) with a bias on
        // every axis; the motion estimate's time constant is 20 s here, and four of them pass.
        var estimator = GyroErrorEstimator(
            configuration: Self.configuration(motionBias: 20, scale: 0), filterTimeConstant: 3)
        let bias = Vector3(0.01, -0.012, 0.008)
        Self.learn(&estimator, bias: bias, scale: .zero, duration: 80) { t in
            Vector3(0.4 * sin(0.31 * t), 0.35 * cos(0.23 * t), 0.3 * sin(0.17 * t + 1))
        }
        let error = estimator.bias - bias
        #expect(error.norm < 0.15 * bias.norm, "bias \(estimator.bias), true \(bias)")
        #expect(estimator.scale == .zero, "scale learning is off: \(estimator.scale)")
    }

    @Test func recoversAScaleErrorInFastRotation() {
        // A fast spin mostly about the device's x axis, whose gyroscope reads 2 % high, with a small bias.
        var estimator = GyroErrorEstimator(configuration: Self.configuration(), filterTimeConstant: 3)
        let bias = Vector3(0.005, 0, -0.004)
        let scale = Vector3(0.02, 0, 0)
        Self.learn(&estimator, bias: bias, scale: scale, duration: 60) { t in
            Vector3(2.0 + 0.5 * sin(0.7 * t), 0.4 * sin(1.3 * t), 0.3 * cos(0.9 * t))
        }
        #expect(abs(estimator.scale.x - 0.02) < 0.003, "scale \(estimator.scale)")
        #expect(abs(estimator.scale.y) < 0.01 && abs(estimator.scale.z) < 0.01, "scale \(estimator.scale)")
    }

    @Test func estimatesStayWithinTheirBounds() {
        // A correction rate far beyond any plausible error: bias and scale stop at their limits.
        var estimator = GyroErrorEstimator(
            configuration: Self.configuration(motionBias: 1, scale: 1), filterTimeConstant: 3)
        let r = GyroErrorRegressors(
            biasX: Vector3(1, 0, 0), biasY: Vector3(0, 1, 0), biasZ: Vector3(0, 0, 1), scaleX: Vector3(3, 0, 0),
            scaleY: Vector3(0, 3, 0), scaleZ: Vector3(0, 0, 3))
        for _ in 0..<100 {
            estimator.learn(r, correctionRate: Vector3(-50, 50, 0), up: Vector3(0, 0, 1), time: 0.06)
        }
        #expect(estimator.bias == Vector3(0.1, -0.1, 0), "bias \(estimator.bias)")
        #expect(estimator.scale == Vector3(0.03, -0.03, 0), "scale \(estimator.scale)")
    }

    @Test func followsTheRestMeanWithinTheBound() {
        var estimator = GyroErrorEstimator(configuration: Self.configuration(), filterTimeConstant: 3)
        let mean = Vector3(0.02, -0.03, 0.5)
        // 20 s at rest, in 60 ms blocks, with a 2 s time constant: the mean, the z axis held at the 0.1 rad/s bound.
        for _ in 0..<333 { estimator.followRest(mean: mean, time: 0.06) }
        #expect(abs(estimator.bias.x - 0.02) < 1e-5 && abs(estimator.bias.y + 0.03) < 1e-5, "\(estimator.bias)")
        #expect(estimator.bias.z == 0.1)
        // The corrected rate removes bias and scale error: a reading (1 + s)·ω + b gives ω up to the second-order
        // terms s²·ω and s·b (here 2·10⁻³ at most).
        estimator.scale = Vector3(0.01, 0, -0.02)
        let omega = Vector3(1, -2, 0.5)
        let reading =
            Vector3(omega.x * 1.01, omega.y, omega.z * 0.98) + estimator.bias
        #expect((estimator.corrected(reading) - omega).norm < 2.5e-3)
    }
}
