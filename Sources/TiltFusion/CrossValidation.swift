import TiltCore

/// Leave-one-trial-out validation of the filter's tuned parameters (`tilt bench fusion --cross-validate`): a score
/// that cannot flatter, because no trial is scored with a value that was chosen by looking at it.
///
/// For each trial, the parameters in ``tuned`` are chosen on the *other* trials alone, by one pass of coordinate
/// descent from the defaults (each parameter in turn takes the candidate with the lowest mean 9D total RMSE, those
/// before it at their chosen values), and the trial is then fused with all those choices and scored: its held-out
/// score. A candidate replaces the value in place only when it lowers the mean by more than ``margin`` (relative): over
/// fourteen trials smaller differences are noise, and following them picks values that do not carry over.
/// The mean of the held-out scores is the number to quote; the defaults' own score beside it shows how much the
/// tuning could flatter.
package struct CrossValidation: Sendable {
    /// A tuned parameter and the candidates it is chosen from.
    package struct Grid: Sendable {
        package var parameter: AttitudeFilter.Parameter
        package var candidates: [Double]

        package init(parameter: AttitudeFilter.Parameter, candidates: [Double]) {
            self.parameter = parameter
            self.candidates = candidates
        }
    }

    /// Every parameter whose default was chosen by looking at recordings, with its candidates: the one place that
    /// lists what is tuned. Each grid contains the default.
    package static let tuned: [Grid] = [
        grid("accelTimeConstant", [2, 3, 4.5]),
        grid("magTimeConstant", [6, 9, 13, 18]),
        grid("motionBiasTimeConstant", [30, 60, 120]),
        grid("scaleTimeConstant", [0, 5, 10, 20]),
        grid("magNormTolerance", [0.06, 0.1, 0.15]),
        grid("magDipTolerance", [3 * .pi / 180, 5 * .pi / 180, 10 * .pi / 180]),
        grid("hardIronTimeConstant", [0, 3, 5, 10, 20]),
        grid("hardIronTolerance", [0.06, 0.08, 0.1, 0.12, 0.15]),
        grid("hardIronFollowTime", [2, 6, 12]),
        grid("magMaxHeadingRate", [1 * .pi / 180, 2 * .pi / 180, 5 * .pi / 180]),
        grid("sensorDelay", [0, 0.001, 0.002, 0.003]),
    ]

    private static func grid(_ name: String, _ candidates: [Double]) -> Grid {
        guard let parameter = AttitudeFilter.Parameter.named(name) else {
            preconditionFailure("CrossValidation.tuned names an unknown parameter '\(name)'")
        }
        return Grid(parameter: parameter, candidates: candidates)
    }

    /// One trial's held-out result.
    package struct Row: Sendable {
        package var name: String
        /// The trial scored with the defaults.
        package var defaults: BroadScore
        /// The trial scored with every parameter chosen without it.
        package var heldOut: BroadScore
        /// The value chosen for each tuned parameter, in ``tuned``'s order.
        package var chosen: [Double]
    }

    /// One recording to validate on (9D: it must have a magnetometer).
    package struct Trial: Sendable {
        package var name: String
        package var samples: [MotionSample]
        package var truth: [Quaternion?]
        package var movement: [Bool]?

        package init(name: String, samples: [MotionSample], truth: [Quaternion?], movement: [Bool]?) {
            self.name = name
            self.samples = samples
            self.truth = truth
            self.movement = movement
        }
    }

    /// How much better (relative) a candidate's mean must be to replace the value in place: 2 %.
    package static let margin = 0.02

    package let rows: [Row]
    /// Each tuned parameter's candidates, each alone on the base configuration, with their mean 9D total over all
    /// trials (for the report only; no choice is made from it).
    package let grids: [(grid: Grid, means: [Double])]

    /// Runs the validation; `progress` is told each step.
    package init(
        trials: [Trial], base: AttitudeFilter.Configuration = .init(), grids: [Grid] = CrossValidation.tuned,
        margin: Double = CrossValidation.margin, progress: (String) -> Void = { _ in }
    ) {
        var base = base
        base.useMagnetometer = true
        var estimates: [Quaternion] = []
        func score(_ trial: Trial, _ configuration: AttitudeFilter.Configuration) -> BroadScore {
            if estimates.count != trial.samples.count {
                estimates = [Quaternion](repeating: .identity, count: trial.samples.count)
            }
            _ = BroadTrial.fuse(trial.samples, configuration: configuration, into: &estimates)
            return BroadScore.score(
                estimates: estimates, truth: trial.truth, movement: trial.movement, removeHeadingOffset: false)
        }
        // Every configuration tried is fused once per trial, whichever fold asks for it.
        var cache: [AttitudeFilter.Configuration: [Int: Double]] = [:]
        func total(_ t: Int, _ configuration: AttitudeFilter.Configuration) -> Double {
            if let known = cache[configuration]?[t] { return known }
            let value = score(trials[t], configuration).total
            cache[configuration, default: [:]][t] = value
            return value
        }
        // The base's candidates, each alone, over all trials: for the report.
        var means: [(grid: Grid, means: [Double])] = []
        for grid in grids {
            progress("scoring \(grid.parameter.name) = \(grid.candidates.map { "\($0)" }.joined(separator: ", "))")
            means.append(
                (
                    grid,
                    grid.candidates.map { value in
                        var configuration = base
                        grid.parameter.set(value, in: &configuration)
                        return Self.mean(trials.indices.map { total($0, configuration) })
                    }
                ))
        }
        var rows: [Row] = []
        for (t, trial) in trials.enumerated() {
            progress("held out: \(trial.name)")
            // One pass of coordinate descent over the other trials: each parameter in turn takes the candidate with
            // the lowest mean 9D total, the ones before it already at their chosen values.
            let others = trials.indices.filter { $0 != t }
            var configuration = base
            var chosen: [Double] = []
            for grid in grids {
                // The value in place (the default) stays unless a candidate beats it by more than `margin`: a
                // difference within the noise of 14 trials is no reason to move.
                var best = grid.parameter.value(in: configuration)
                var bestMean = Self.mean(others.map { total($0, configuration) }) * (1 - margin)
                for value in grid.candidates {
                    var candidate = configuration
                    grid.parameter.set(value, in: &candidate)
                    let m = Self.mean(others.map { total($0, candidate) })
                    if m < bestMean {
                        bestMean = m * (1 - margin)
                        best = value
                    }
                }
                grid.parameter.set(best, in: &configuration)
                chosen.append(best)
            }
            rows.append(
                Row(
                    name: trial.name, defaults: score(trial, base), heldOut: score(trial, configuration), chosen: chosen
                ))
        }
        self.rows = rows
        self.grids = means
    }

    /// The mean of the finite values; NaN if none.
    package static func mean(_ values: [Double]) -> Double {
        let v = values.filter(\.isFinite)
        return v.isEmpty ? .nan : v.reduce(0, +) / Double(v.count)
    }
}
