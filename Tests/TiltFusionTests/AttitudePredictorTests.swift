import Foundation
import Testing
import TiltCore
import TiltFusion

/// Prediction on synthetic motion (issue 30): it leads by rate × time at a constant rate, and settles without
/// overshoot when the motion stops.
@Suite struct AttitudePredictorTests {
    /// Feeds `rate(t)` at `hz` from `from` to `to` seconds; returns the predictor.
    private func feed(
        _ p: inout AttitudePredictor, hz: Double = 200, from: Double = 0, to: Double, resting: Bool = false,
        rate: (Double) -> Vector3
    ) {
        var t = from
        while t < to {
            p.update(rate: rate(t), time: t, resting: resting)
            t += 1 / hz
        }
    }

    @Test(
        "at a constant rate both models lead by rate × horizon, at any sample rate",
        arguments: [AttitudePredictor.Model.fitted, .constantRate], [100.0, 1000.0])
    func constantRateLeadsByRateTimesHorizon(_ model: AttitudePredictor.Model, _ hz: Double) {
        var p = AttitudePredictor(model: model)
        let w = Vector3(0.8, -0.5, 1.2)  // rad/s, about 85 °/s
        feed(&p, hz: hz, to: 2) { _ in w }
        for h in [0.01, 0.03, 0.1] {
            let v = p.rotation(ahead: h)
            #expect((v - w * h).norm < 0.02 * w.norm * h, "horizon \(h): \(v) against \(w * h)")
        }
        // Applied to an attitude: the predicted pose is the pose turned by w·h about the device's own axes.
        let q = Quaternion(euler: .init(roll: 0.2, pitch: -0.1, yaw: 0.7))
        let ahead = p.predict(q, ahead: 0.03)
        let expected = q * Quaternion(rotationVector: w * 0.03)
        #expect(ahead.angle(to: expected) < 0.02 * w.norm * 0.03)
    }

    @Test("horizons are capped at 0.1 s and the rotation at 2000 °/s; nothing is predicted before the first sample")
    func limits() {
        var p = AttitudePredictor(model: .constantRate)
        #expect(p.rotation(ahead: 0.05) == .zero)
        feed(&p, to: 1) { _ in Vector3(1, 0, 0) }
        #expect(abs(p.rotation(ahead: 5).x - 0.1 * p.motionTrust) < 1e-9)
        #expect(p.rotation(ahead: -1) == .zero && p.rotation(ahead: .nan) == .zero)
        var wild = AttitudePredictor(model: .constantRate)
        feed(&wild, to: 1) { _ in Vector3(0, 0, 500) }
        #expect(abs(wild.rotation(ahead: 0.1).norm - AttitudePredictor.maxRate * 0.1) < 1e-9)
        // A non-finite rate is ignored.
        wild.update(rate: Vector3(.nan, 0, 0), time: 1.1)
        #expect(wild.rotation(ahead: 0.1).norm.isFinite)
    }

    @Test("when the motion stops the prediction settles to none, without overshooting the other way")
    func stoppingSettlesWithoutOvershoot() {
        var p = AttitudePredictor()
        let w = Vector3(0, 2, 0)  // a brisk turn, then a sudden stop at t = 1 s
        feed(&p, to: 1) { _ in w }
        var t = 1.0
        var largestBack = 0.0
        var last = Double.infinity
        while t < 2 {
            p.update(rate: .zero, time: t)
            let lead = p.rotation(ahead: 0.03).y
            largestBack = max(largestBack, -lead)
            if t > 1.3 { last = min(last, abs(lead)) }
            t += 0.005
        }
        // The fitted model leads with the angular acceleration too, whose estimate points back for a while after
        // the stop; the prediction never follows it against the rate measured now.
        #expect(largestBack == 0, "points back by \(largestBack) rad after the stop")
        #expect(abs(p.rotation(ahead: 0.03).y) < 1e-3, "still predicts \(p.rotation(ahead: 0.03)) 1 s after")
    }

    @Test("at rest or at noise-level rates nothing is predicted; after a gap the history starts again")
    func restAndNoiseAreNotPredicted() {
        var p = AttitudePredictor()
        feed(&p, to: 1, resting: true) { _ in Vector3(0.5, 0, 0) }
        #expect(p.rotation(ahead: 0.05).norm < 1e-6)
        var noisy = AttitudePredictor()
        // ±0.2 °/s of noise.
        feed(&noisy, to: 2) { t in Vector3(0.0035 * sin(t * 377), 0.0035 * cos(t * 211), 0) }
        #expect(noisy.rotation(ahead: 0.05).norm < 0.02 * 0.0035 * 0.05 * 10)
        var gap = AttitudePredictor(model: .constantRate)
        feed(&gap, to: 1) { _ in Vector3(1, 0, 0) }
        gap.reset()
        #expect(gap.rotation(ahead: 0.05) == .zero)
    }

    @Test("the fit recovers the weights of a signal it can predict exactly")
    func fitRecoversConstantRate() throws {
        // A rate that is constant over each second: the future integral is h·ω, except across the steps.
        var times: [Double] = []
        var rates: [Vector3] = []
        for i in 0..<4000 {
            let t = Double(i) / 200
            times.append(t)
            let k = Double(Int(t))
            rates.append(Vector3(0.3 * k, -0.2 * k + 1, sin(k)))
        }
        var fit = PredictionFit()
        fit.add(times: times, rates: rates)
        fit.add(times: times, rates: rates.map { $0 * -1 })
        let model = try #require(fit.model())
        var p = AttitudePredictor(model: model)
        let w = Vector3(1, 0.5, -0.25)
        var t = 0.0
        while t < 2 {
            p.update(rate: w, time: t)
            t += 0.005
        }
        #expect((p.rotation(ahead: 0.05) - w * 0.05).norm < 0.05 * w.norm * 0.05)
        // Leaving out one of two parts still fits on the other.
        #expect(fit.model(excluding: 0) != nil)
    }
}

/// Predicted frames out of the pipeline: ahead of the fused attitude, tilt shaped after prediction and clamped.
@Suite struct PipelinePredictionTests {
    private func sample(_ t: Double, gyro: Vector3, attitude q: Quaternion) -> MotionSample {
        // The specific force of a still device in pose q: +g along earth up, in the device frame.
        MotionSample(time: t, gyro: gyro, accel: q.inverseRotate(Vector3(0, 0, standardGravity)), mag: nil)
    }

    @Test("a steady turn: the predicted frame is ahead by rate × horizon, its tilt is shaped and never past the clamp")
    func steadyTurnLeads() {
        var configuration = MotionPipeline.Configuration()
        configuration.filter.useMagnetometer = false
        var pipeline = MotionPipeline(configuration: configuration)
        pipeline.predictionHorizons = [30]
        var q = Quaternion.identity
        let w = Vector3(0.6, 0, 0)
        var frame: AttitudeFrame?
        var largest = 0.0
        for i in 0..<600 {
            let t = Double(i) / 200
            frame = pipeline.process(sample(t, gyro: w, attitude: q), source: "test")
            let ahead = pipeline.predictedFrame(frame!, horizon: 0.03)
            largest = max(largest, abs(ahead.tilt.x), abs(ahead.tilt.y))
            q = q * Quaternion(rotationVector: w * 0.005)
        }
        let fused = frame!
        let ahead = pipeline.predictedFrame(fused, horizon: 0.03)
        #expect(ahead.predicted == 0.03 && fused.predicted == nil)
        let lead = (fused.quaternion.conjugate * ahead.quaternion).rotationVector
        #expect(abs(lead.x - 0.6 * 0.03) < 0.1 * 0.6 * 0.03, "lead \(lead)")
        #expect(largest < configuration.shaping.limit)
        // Gravity follows the predicted attitude.
        let g = ahead.quaternion.inverseRotate(Vector3(0, 0, -standardGravity))
        #expect((ahead.gravity - g).norm < 1e-9)
        #expect(pipeline.predictedFrame(fused, horizon: 0) == fused)
    }
}
