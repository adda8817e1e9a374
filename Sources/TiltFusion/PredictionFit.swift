import TiltCore

/// Least-squares fit of an ``AttitudePredictor/Model``'s weights: the rotation a recording's gyroscope turns through
/// in the next `h` seconds, predicted from its rate and that rate's low-passes up to now, over several horizons at
/// once (so one model serves every horizon up to ``AttitudePredictor/maxHorizon``).
///
/// The target is the recording's own future rate, integrated (a sum of rate × interval, which is the rotation
/// vector to well under a thousandth of a radian over 0.1 s): the fit needs no reference orientation, only the
/// gyroscope. The normal equations of each recording are kept apart (``Part``), so that leaving one recording out
/// (``model(excluding:)``) costs a sum and a solve, not a pass over the data.
package struct PredictionFit: Sendable {
    /// The horizons every row is fitted at, seconds.
    package static let horizons = [0.01, 0.02, 0.03, 0.05, 0.075, 0.1]

    /// One recording's normal equations.
    package struct Part: Sendable {
        /// `AᵀA`, row-major, `n × n` with `n` twice the feature count.
        package var normal: [Double]
        /// `Aᵀb`.
        package var right: [Double]
        /// How many equations went in.
        package var rows: Int
    }

    package let timeConstants: [Double]
    package private(set) var parts: [Part] = []

    package init(timeConstants: [Double] = AttitudePredictor.Model.fittedTimeConstants) {
        self.timeConstants = timeConstants
    }

    /// The unknowns: the weights of the low-passes (the rate's own follow from them, ``model(excluding:ridge:)``).
    private var size: Int { 2 * timeConstants.count }

    /// Adds one recording: its samples' `times` (seconds) and bias-corrected `rates` (device frame, rad/s), and
    /// which rows to fit on (`nil`: all). Every `stride`-th row is used (neighbouring rows say almost the same).
    /// A row whose horizon reaches past the recording's end, or across a step back in time or a pause of a second
    /// or more, is not used. Returns the part's index.
    @discardableResult
    package mutating func add(times: [Double], rates: [Vector3], fitted: [Bool]? = nil, stride: Int = 3) -> Int {
        let n = min(times.count, rates.count)
        let k = timeConstants.count + 1
        let lows = k - 1
        var part = Part(
            normal: Array(repeating: 0, count: size * size), right: Array(repeating: 0, count: size), rows: 0)
        // Prefix sums of rate × interval: the rotation from sample 0 to the start of sample i.
        var prefix = [Vector3](repeating: .zero, count: n + 1)
        var broken = [Int](repeating: 0, count: n + 1)  // how many bad intervals before i
        for i in 0..<n {
            let dt = i + 1 < n ? times[i + 1] - times[i] : 0
            let good = dt >= 0 && dt < 1
            prefix[i + 1] = prefix[i] + rates[i] * (good ? dt : 0)
            broken[i + 1] = broken[i] + (good ? 0 : 1)
        }
        var predictor = AttitudePredictor(
            model: .init(
                timeConstants: timeConstants, rateWeights: Array(repeating: 0, count: k),
                accelerationWeights: Array(repeating: 0, count: k)))
        var row = [Double](repeating: 0, count: size)
        // Per horizon, the last sample that starts at or before the horizon's end (times only grow).
        var last = [Int](repeating: 0, count: Self.horizons.count)
        for i in 0..<n {
            if i > 0, !(times[i] - times[i - 1] >= 0 && times[i] - times[i - 1] < 1) { predictor.reset() }
            predictor.update(rate: rates[i], time: times[i])
            guard i % max(stride, 1) == 0, fitted.map({ i < $0.count && $0[i] }) ?? true else { continue }
            let f = predictor.features
            for (slot, h) in Self.horizons.enumerated() {
                let end = times[i] + h
                var j = max(last[slot], i)
                while j + 1 < n, times[j + 1] <= end { j += 1 }
                last[slot] = j
                guard j + 1 < n, broken[j] == broken[i] else { continue }
                // Whole intervals i..<j, then the part of sample j's interval up to `end`.
                // A steady rate is predicted to go on: the weights are fitted on each low-pass's difference from the
                // rate, against what is left after constant-rate prediction.
                let target = prefix[j] - prefix[i] + rates[j] * (end - times[j]) - f[0] * h
                for axis in 0..<3 {
                    let now = f[0].component(axis)
                    for m in 0..<lows {
                        let v = f[m + 1].component(axis) - now
                        row[m] = h * v
                        row[lows + m] = 0.5 * h * h * v
                    }
                    let b = target.component(axis)
                    for r in 0..<size {
                        part.right[r] += row[r] * b
                        for c in 0..<size { part.normal[r * size + c] += row[r] * row[c] }
                    }
                    part.rows += 1
                }
            }
        }
        parts.append(part)
        return parts.count - 1
    }

    /// The model fitted on every part but `excluded`, or `nil` when too few rows went in or the equations are
    /// singular. A tiny ridge towards constant-rate prediction (relative weight `ridge`) keeps it well posed.
    package func model(excluding excluded: Int? = nil, ridge: Double = 1e-6) -> AttitudePredictor.Model? {
        let n = size
        var a = [Double](repeating: 0, count: n * n)
        var b = [Double](repeating: 0, count: n)
        var rows = 0
        for (index, part) in parts.enumerated() where index != excluded {
            for i in 0..<(n * n) { a[i] += part.normal[i] }
            for i in 0..<n { b[i] += part.right[i] }
            rows += part.rows
        }
        guard rows >= n else { return nil }
        var trace = 0.0
        for i in 0..<n { trace += a[i * n + i] }
        let lambda = ridge * trace / Double(n)
        for i in 0..<n { a[i * n + i] += lambda }
        guard let x = Self.solve(a, b, n) else { return nil }
        // The ridge pulls every low-pass weight towards 0: towards constant-rate prediction. The rate's own weights
        // make the rate weights sum to 1 and the acceleration weights to 0, so a steady turn is predicted to go on.
        let lows = n / 2
        let rate = Array(x[0..<lows])
        let acceleration = Array(x[lows..<n])
        return AttitudePredictor.Model(
            timeConstants: timeConstants, rateWeights: [1 - rate.reduce(0, +)] + rate,
            accelerationWeights: [-acceleration.reduce(0, +)] + acceleration)
    }

    /// Solves `a x = b` (`a` row-major `n × n`) by Gaussian elimination with partial pivoting; `nil` if singular.
    static func solve(_ a: [Double], _ b: [Double], _ n: Int) -> [Double]? {
        var m = a
        var y = b
        for col in 0..<n {
            var pivot = col
            for r in (col + 1)..<max(n, col + 1) where abs(m[r * n + col]) > abs(m[pivot * n + col]) { pivot = r }
            guard abs(m[pivot * n + col]) > 1e-300 else { return nil }
            if pivot != col {
                for c in 0..<n { m.swapAt(col * n + c, pivot * n + c) }
                y.swapAt(col, pivot)
            }
            for r in (col + 1)..<max(n, col + 1) {
                let f = m[r * n + col] / m[col * n + col]
                guard f != 0 else { continue }
                for c in col..<n { m[r * n + c] -= f * m[col * n + c] }
                y[r] -= f * y[col]
            }
        }
        var x = [Double](repeating: 0, count: n)
        for r in stride(from: n - 1, through: 0, by: -1) {
            var s = y[r]
            for c in (r + 1)..<max(n, r + 1) { s -= m[r * n + c] * x[c] }
            x[r] = s / m[r * n + r]
        }
        return x.allSatisfy(\.isFinite) ? x : nil
    }
}

extension Vector3 {
    /// x, y or z by index 0, 1 or 2.
    fileprivate func component(_ axis: Int) -> Double {
        axis == 0 ? x : axis == 1 ? y : z
    }
}
