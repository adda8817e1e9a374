import TiltCore
import TiltFusion
import TiltSensors

/// `tilt bench fusion --predict SECONDS`: the attitude predicted that far ahead, scored against the reference at
/// `t + SECONDS`, beside the attitude as fused and beside plain constant-angular-velocity prediction from the raw
/// gyroscope, both scored against the same shifted reference; and the predicted tilt's jitter at rest beside the
/// plain tilt's.
///
/// Each trial is fused with the daemon's pipeline (9D where it has a magnetometer, else 6D); the scored rows are
/// those in a movement phase whose shifted reference is known (the reference is interpolated between its two
/// neighbouring rows). Rest jitter is the root mean square of the shaped tilt's change from one sample to the next
/// over the rows outside the movement phases where the reference is still (``stillRows(times:truth:)``). With `crossValidate`, each trial is predicted with a model fitted on
/// the other trials only (``PredictionFit``), and the model fitted on all of them is printed: the weights
/// ``AttitudePredictor/Model/fitted`` ships.
package enum PredictionBenchmark {
    /// One trial's result.
    package struct Row: Sendable {
        package var name: String
        /// Inclination RMSE against the reference at `t + h`, degrees: as fused, plain constant-rate prediction
        /// from the raw gyroscope, and the predictor's.
        package var unpredicted: Double
        package var constantRate: Double
        package var predicted: Double
        /// RMS of the shaped tilt's change per sample outside movement, radians: as fused and predicted.
        package var restJitter: Double
        package var predictedRestJitter: Double
        /// Rows scored.
        package var count: Int

        package var constantRateRatio: Double { constantRate / unpredicted }
        package var predictedRatio: Double { predicted / unpredicted }
        package var jitterRatio: Double { predictedRestJitter / restJitter }
    }

    /// The report: the rows, and the model fitted on every trial when cross-validating.
    package struct Report: Sendable {
        package var horizon: Double
        package var rows: [Row]
        package var crossValidated: Bool
        package var fittedOnAll: AttitudePredictor.Model?
    }

    /// Runs the benchmark at `horizon` seconds over `trials`, with the shipped model or, with `crossValidate`,
    /// a model fitted without each trial; `progress` gets a line per step.
    package static func run(
        _ trials: [FusionBenchmark.Trial], horizon: Double, crossValidate: Bool,
        model: AttitudePredictor.Model = .fitted, progress: (String) -> Void = { _ in }
    ) -> Report {
        let h = min(max(horizon, 0.001), AttitudePredictor.maxHorizon)
        // Cross-validating, a first pass collects every trial's rates for the fit, which must hold the other
        // trials before any is predicted. The rates do not depend on the model.
        var fit = PredictionFit(timeConstants: model.timeConstants)
        if crossValidate {
            for (index, trial) in trials.enumerated() {
                progress("[\(index + 1)/\(trials.count)] fusing \(trial.name) for the fit")
                let fused = fuse(trial, model: model, horizon: h)
                fit.add(times: trial.log.samples.map(\.time), rates: fused.rates, fitted: trial.log.movement)
            }
        }
        var rows: [Row] = []
        for (index, trial) in trials.enumerated() {
            var chosen = model
            if crossValidate {
                progress("[\(index + 1)/\(trials.count)] predicting \(trial.name) with a model fitted without it")
                chosen = fit.model(excluding: index) ?? model
            } else {
                progress("[\(index + 1)/\(trials.count)] predicting \(trial.name)")
            }
            rows.append(score(trial, fuse(trial, model: chosen, horizon: h), horizon: h))
        }
        return Report(
            horizon: h, rows: rows, crossValidated: crossValidate, fittedOnAll: crossValidate ? fit.model() : nil)
    }

    /// One trial through the pipeline: per sample, the attitude and shaped tilt as fused and as predicted `horizon`
    /// ahead, and the bias-corrected rate.
    struct Fused {
        var attitudes: [Quaternion] = []
        var tilts: [AttitudeFrame.Tilt] = []
        var predictedAttitudes: [Quaternion] = []
        var predictedTilts: [AttitudeFrame.Tilt] = []
        var rates: [Vector3] = []
    }

    static func fuse(_ trial: FusionBenchmark.Trial, model: AttitudePredictor.Model, horizon: Double) -> Fused {
        var configuration = MotionPipeline.Configuration(prediction: model)
        configuration.filter.useMagnetometer = trial.log.hasMagnetometer
        var pipeline = MotionPipeline(configuration: configuration)
        let ms = Int((horizon * 1000).rounded())
        pipeline.predictionHorizons = [ms]
        var out = Fused()
        let n = trial.log.samples.count
        out.attitudes.reserveCapacity(n)
        out.tilts.reserveCapacity(n)
        out.predictedAttitudes.reserveCapacity(n)
        out.predictedTilts.reserveCapacity(n)
        out.rates.reserveCapacity(n)
        for (i, sample) in trial.log.samples.enumerated() {
            if trial.log.gaps[i] != nil { pipeline.markGap() }
            let frame = pipeline.process(sample, source: "bench")
            let ahead = pipeline.predictedFrame(frame, horizon: Double(ms) / 1000)
            out.attitudes.append(frame.quaternion)
            out.tilts.append(frame.tilt)
            out.predictedAttitudes.append(ahead.quaternion)
            out.predictedTilts.append(ahead.tilt)
            out.rates.append(frame.rotationRate)
        }
        return out
    }

    /// The reference interpolated at each sample's time plus `horizon`: `nil` where it, or a row it is
    /// interpolated from, is unknown, or past the end.
    static func shiftedReference(times: [Double], truth: [Quaternion?], horizon: Double) -> [Quaternion?] {
        var out = [Quaternion?](repeating: nil, count: times.count)
        var j = 0
        for i in times.indices {
            let target = times[i] + horizon
            j = max(j, i)
            while j + 1 < times.count, times[j + 1] <= target { j += 1 }
            guard j + 1 < times.count, j < truth.count, j + 1 < truth.count, let a = truth[j], var b = truth[j + 1]
            else { continue }
            let span = times[j + 1] - times[j]
            guard span > 0, span < 0.1 else { continue }
            let f = (target - times[j]) / span
            if a.w * b.w + a.x * b.x + a.y * b.y + a.z * b.z < 0 { b = Quaternion(w: -b.w, x: -b.x, y: -b.y, z: -b.z) }
            out[i] =
                Quaternion(
                    w: a.w + (b.w - a.w) * f, x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f,
                    z: a.z + (b.z - a.z) * f
                ).normalized
        }
        return out
    }

    /// The most the reference may turn, rad/s, over ``stillWindow`` around a row for it to count as still.
    static let stillRate = 2 * Double.pi / 180
    /// The window stillness is judged over, seconds.
    static let stillWindow = 0.1

    /// Which rows the reference says are still: it turns less than ``stillRate`` over ``stillWindow`` seconds on
    /// both sides. Judged on the motion capture, not the filter, so neither tilt's own noise decides where it is
    /// measured.
    static func stillRows(times: [Double], truth: [Quaternion?]) -> [Bool] {
        let n = min(times.count, truth.count)
        var out = [Bool](repeating: false, count: times.count)
        var back = 0
        var ahead = 0
        for i in 0..<n {
            while back < i, times[i] - times[back] > stillWindow { back += 1 }
            while ahead + 1 < n, times[ahead + 1] - times[i] <= stillWindow { ahead += 1 }
            guard let q = truth[i], let a = truth[back], let b = truth[ahead] else { continue }
            let span = max(times[ahead] - times[back], 1e-9)
            out[i] = (q.angle(to: a) + q.angle(to: b)) / span < stillRate
        }
        return out
    }

    static func score(_ trial: FusionBenchmark.Trial, _ fused: Fused, horizon: Double) -> Row {
        let samples = trial.log.samples
        let reference = shiftedReference(times: samples.map(\.time), truth: trial.truth, horizon: horizon)
        let movement = trial.log.movement
        func inclination(_ estimates: [Quaternion]) -> BroadScore {
            BroadScore.score(estimates: estimates, truth: reference, movement: movement, removeHeadingOffset: false)
        }
        let none = inclination(fused.attitudes)
        let constant = inclination(
            zip(fused.attitudes, samples).map { q, s in (q * Quaternion(rotationVector: s.gyro * horizon)).normalized })
        let predicted = inclination(fused.predictedAttitudes)
        let still = stillRows(times: samples.map(\.time), truth: trial.truth)
        func jitter(_ tilts: [AttitudeFrame.Tilt]) -> Double {
            var sum = 0.0
            var count = 0
            for i in tilts.indices.dropFirst() {
                if let movement, i < movement.count, movement[i] || movement[i - 1] { continue }
                if !still[i] || !still[i - 1] { continue }
                if trial.log.gaps[i] != nil { continue }
                let dx = tilts[i].x - tilts[i - 1].x
                let dy = tilts[i].y - tilts[i - 1].y
                sum += dx * dx + dy * dy
                count += 1
            }
            return count > 0 ? (sum / Double(count)).squareRoot() : .nan
        }
        return Row(
            name: trial.name, unpredicted: none.inclination, constantRate: constant.inclination,
            predicted: predicted.inclination, restJitter: jitter(fused.tilts),
            predictedRestJitter: jitter(fused.predictedTilts),
            count: none.count)
    }

    /// The table and its summary, as `tilt bench fusion --predict` prints them.
    package static func text(_ report: Report) -> String {
        let rows = report.rows
        func cell(_ v: Double, _ format: String = "%8.3f") -> String {
            v.isFinite ? String(printf: format, v) : "       –"
        }
        let width = max(5, rows.map(\.name.count).max() ?? 5)
        func pad(_ s: String) -> String { s.padded(to: width) }
        let ms = Int((report.horizon * 1000).rounded())
        var lines = [
            "prediction \(ms) ms ahead, scored against the reference at t + \(ms) ms "
                + (report.crossValidated ? "(each trial with a model fitted without it)" : "(the shipped model)"),
            pad("") + "   fused  const-ω  predict   const-ω  predict   rest jitter  (inclination RMSE, degrees;",
            pad("") + "    (°)     (°)      (°)     ratio    ratio     ratio        ratio = / fused; jitter ratio = "
                + "predicted tilt / fused tilt at rest)",
        ]
        for r in rows {
            lines.append(
                pad(r.name) + cell(r.unpredicted) + " " + cell(r.constantRate) + " " + cell(r.predicted) + "  "
                    + cell(r.constantRateRatio) + " " + cell(r.predictedRatio) + "    " + cell(r.jitterRatio))
        }
        func group(_ label: String, _ match: (String) -> Bool) -> [Row] {
            rows.filter { match($0.name) && $0.unpredicted.isFinite && $0.unpredicted > 0 }
        }
        func mean(_ v: [Double]) -> Double { v.isEmpty ? .nan : v.reduce(0, +) / Double(v.count) }
        let fastRotation = group("fast rotation") { $0.contains("fast_rotation") }
        let fast = group("fast") { $0.contains("fast") }
        let slow = group("slow") { $0.contains("slow") }
        lines.append("")
        if !fastRotation.isEmpty {
            lines.append(
                String(
                    printf: "fast rotation trials (%d): mean ratio %.3f (constant-ω %.3f); target ≤ 0.25",
                    fastRotation.count, mean(fastRotation.map(\.predictedRatio)),
                    mean(fastRotation.map(\.constantRateRatio))))
        }
        if !fast.isEmpty {
            lines.append(
                String(
                    printf: "all 'fast' trials (%d): mean ratio %.3f (constant-ω %.3f)", fast.count,
                    mean(fast.map(\.predictedRatio)), mean(fast.map(\.constantRateRatio))))
        }
        if let worst = slow.max(by: { $0.predictedRatio < $1.predictedRatio }) {
            let worstConstant = slow.map(\.constantRateRatio).max() ?? .nan
            lines.append(
                String(printf: "slow trials (%d): worst ratio %.3f", slow.count, worst.predictedRatio)
                    + " (\(worst.name); "
                    + String(printf: "constant-ω worst %.3f); target ≤ 0.6", worstConstant))
        }
        let jitters = rows.map(\.jitterRatio).filter(\.isFinite)
        if let worst = jitters.max() {
            lines.append(
                String(
                    printf: "rest jitter of the predicted tilt / the fused tilt: worst %.3f, mean %.3f; target ≤ 1.2",
                    worst, mean(jitters)))
        }
        if let model = report.fittedOnAll {
            func list(_ v: [Double]) -> String {
                "[" + v.map { String(printf: "%.3f", $0) }.joined(separator: ", ") + "]"
            }
            lines.append("")
            lines.append("model fitted on all \(rows.count) trials (what AttitudePredictor.Model.fitted ships):")
            lines.append("  timeConstants: \(list(model.timeConstants))")
            lines.append("  rateWeights: \(list(model.rateWeights))")
            lines.append("  accelerationWeights: \(list(model.accelerationWeights))")
        }
        return lines.joined(separator: "\n")
    }
}
