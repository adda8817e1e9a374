import TiltCore

/// Leave-one-trial-out validation of the filter's tuned parameters (`tilt bench fusion --cross-validate`): a score
/// that cannot flatter, because no trial is scored with a value that was chosen by looking at it.
///
/// Every parameter in ``tuned`` is scored over its candidate grid on every trial (9D total RMSE, the others at their
/// defaults). For each trial, each parameter's value is then chosen as the candidate with the lowest mean over the
/// *other* trials, and the trial is fused once more with all those choices together and scored: its held-out score.
/// The mean of the held-out scores is the number to quote; the defaults' own score beside it shows how much the
/// tuning could flatter.
public struct CrossValidation: Sendable {
    /// A tuned parameter and the candidates it is chosen from.
    public struct Grid: Sendable {
        public var parameter: AttitudeFilter.Parameter
        public var candidates: [Double]
    }

    /// Every parameter whose default was chosen by looking at recordings, with its candidates: the one place that
    /// lists what is tuned. Each grid contains the default.
    public static let tuned: [Grid] = [
        grid("accelTimeConstant", [2, 3, 4.5]),
        grid("magTimeConstant", [4, 6, 9, 13]),
        grid("motionBiasTimeConstant", [30, 60, 120]),
        grid("scaleTimeConstant", [0, 5, 10, 20]),
        grid("magNormTolerance", [0.06, 0.1, 0.15]),
        grid("magDipTolerance", [5 * .pi / 180, 10 * .pi / 180, 15 * .pi / 180]),
        grid("hardIronTimeConstant", [0, 5, 10, 20]),
        grid("hardIronTolerance", [0.06, 0.08, 0.1, 0.12, 0.15]),
        grid("hardIronFollowTime", [0.5, 2, 6]),
        grid("magMaxHeadingRate", [2 * .pi / 180, 5 * .pi / 180, 15 * .pi / 180]),
    ]

    private static func grid(_ name: String, _ candidates: [Double]) -> Grid {
        guard let parameter = AttitudeFilter.Parameter.named(name) else {
            preconditionFailure("CrossValidation.tuned names an unknown parameter '\(name)'")
        }
        return Grid(parameter: parameter, candidates: candidates)
    }

    /// One trial's held-out result.
    public struct Row: Sendable {
        public var name: String
        /// The trial scored with the defaults.
        public var defaults: BroadScore
        /// The trial scored with every parameter chosen without it.
        public var heldOut: BroadScore
        /// The value chosen for each tuned parameter, in ``tuned``'s order.
        public var chosen: [Double]
    }

    /// One recording to validate on (9D: it must have a magnetometer).
    public struct Trial: Sendable {
        public var name: String
        public var samples: [MotionSample]
        public var truth: [Quaternion?]
        public var movement: [Bool]?

        public init(name: String, samples: [MotionSample], truth: [Quaternion?], movement: [Bool]?) {
            self.name = name
            self.samples = samples
            self.truth = truth
            self.movement = movement
        }
    }

    public let rows: [Row]
    /// Each tuned parameter's candidates with their mean 9D total over all trials (for the report only; no choice
    /// is made from it).
    public let grids: [(grid: Grid, means: [Double])]

    /// Runs the validation; `progress` is told each step.
    public init(
        trials: [Trial], base: AttitudeFilter.Configuration = .init(), grids: [Grid] = CrossValidation.tuned,
        progress: (String) -> Void = { _ in }
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
        // totals[g][c][t]: 9D total of trial t with grid g's candidate c.
        var totals: [[[Double]]] = []
        var means: [(grid: Grid, means: [Double])] = []
        for grid in grids {
            progress("scoring \(grid.parameter.name) = \(grid.candidates.map { "\($0)" }.joined(separator: ", "))")
            var byCandidate: [[Double]] = []
            for value in grid.candidates {
                var configuration = base
                grid.parameter.set(value, in: &configuration)
                byCandidate.append(trials.map { score($0, configuration).total })
            }
            totals.append(byCandidate)
            means.append((grid, byCandidate.map { Self.mean($0) }))
        }
        var rows: [Row] = []
        for (t, trial) in trials.enumerated() {
            progress("held out: \(trial.name)")
            var configuration = base
            var chosen: [Double] = []
            for (g, grid) in grids.enumerated() {
                // The candidate with the lowest mean over the other trials.
                var best = 0
                var bestMean = Double.infinity
                for c in grid.candidates.indices {
                    let others = totals[g][c].enumerated().filter { $0.offset != t }.map(\.element)
                    let m = Self.mean(others)
                    if m < bestMean {
                        bestMean = m
                        best = c
                    }
                }
                grid.parameter.set(grid.candidates[best], in: &configuration)
                chosen.append(grid.candidates[best])
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
    public static func mean(_ values: [Double]) -> Double {
        let v = values.filter(\.isFinite)
        return v.isEmpty ? .nan : v.reduce(0, +) / Double(v.count)
    }
}
