import Testing
import TiltCore
import TiltFusion
import TiltTestKit

#if canImport(Glibc)
    import Glibc
#endif

/// `tilt bench fusion --cross-validate`: no trial is scored with a value chosen by looking at it.
@Suite
struct CrossValidationTests {
    /// Three short recordings that favour different heading time constants: a steady field, one with a magnet
    /// passing (a long time constant rides it out), and one that starts with a wrong field (a short one recovers).
    static func trials() -> [CrossValidation.Trial] {
        var steady = SyntheticMotion()
        steady.angularVelocity = { t in Vector3(0.3 * sin(0.7 * t), 0.2 * cos(0.5 * t), 0.3) }
        var passing = steady
        passing.magneticDisturbance = { t in t > 8 && t < 12 ? Vector3(4, 2, 0) : .zero }
        var wrongStart = steady
        wrongStart.magneticDisturbance = { t in t < 0.5 ? Vector3(20, -20, 0) : .zero }
        return [("steady", steady), ("passing", passing), ("wrongStart", wrongStart)].map { name, motion in
            let (samples, truth) = motion.generate(duration: 20)
            return CrossValidation.Trial(name: name, samples: samples, truth: truth, movement: nil)
        }
    }

    static func total(_ trial: CrossValidation.Trial, _ configuration: AttitudeFilter.Configuration) -> Double {
        var estimates = [Quaternion](repeating: .identity, count: trial.samples.count)
        _ = BroadTrial.fuse(trial.samples, configuration: configuration, into: &estimates)
        return BroadScore.score(estimates: estimates, truth: trial.truth, movement: nil, removeHeadingOffset: false)
            .total
    }

    @Test("each trial's value is the best on the other trials, and its held-out score is that value's")
    func heldOutChoice() throws {
        let trials = Self.trials()
        let parameter = try #require(AttitudeFilter.Parameter.named("magTimeConstant"))
        let grid = CrossValidation.Grid(parameter: parameter, candidates: [0.5, 4, 13, 30])
        let result = CrossValidation(trials: trials, grids: [grid], margin: 0)
        #expect(result.rows.count == trials.count)
        #expect(result.grids.count == 1 && result.grids[0].means.count == 4)
        // Every candidate's total on every trial, computed here independently.
        let totals = grid.candidates.map { value in
            var configuration = AttitudeFilter.Configuration()
            configuration.magTimeConstant = value
            return trials.map { Self.total($0, configuration) }
        }
        for (t, row) in result.rows.enumerated() {
            let others = grid.candidates.indices.map { c in
                totals[c].enumerated().filter { $0.offset != t }.map(\.element).reduce(0, +) / Double(trials.count - 1)
            }
            let best = grid.candidates[others.indices.min { others[$0] < others[$1] }!]
            #expect(row.chosen == [best], "\(row.name): chose \(row.chosen), best without it \(best)")
            var configuration = AttitudeFilter.Configuration()
            configuration.magTimeConstant = best
            #expect(abs(row.heldOut.total - Self.total(trials[t], configuration)) < 1e-9)
            #expect(abs(row.defaults.total - Self.total(trials[t], .init())) < 1e-9)
        }
    }

    @Test("the default stays unless a candidate beats it by more than the margin")
    func marginKeepsTheDefault() throws {
        let trials = Self.trials()
        let parameter = try #require(AttitudeFilter.Parameter.named("magTimeConstant"))
        // 13.5 s differs from the default (13 s) too little to beat it by half.
        let grid = CrossValidation.Grid(parameter: parameter, candidates: [13.5])
        let result = CrossValidation(trials: trials, grids: [grid], margin: 0.5)
        for row in result.rows {
            #expect(row.chosen == [AttitudeFilter.Configuration().magTimeConstant])
        }
    }

    @Test("every tuned parameter is a known one, and its grid holds its default")
    func tunedGridsHoldTheDefaults() {
        let defaults = AttitudeFilter.Configuration()
        for grid in CrossValidation.tuned {
            #expect(grid.candidates.contains(grid.parameter.value(in: defaults)), "\(grid.parameter.name)")
            for value in grid.candidates { #expect(grid.parameter.range.contains(value)) }
        }
    }
}
