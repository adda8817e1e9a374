import FoundationEssentials
import Glibc
import TiltCore

/// Least-squares fits that turn recorded samples into calibration values (`tilt calibrate`).
package enum CalibrationFit {
    /// How still a stretch of samples was.
    package struct Stillness: Sendable, Hashable {
        /// Number of samples.
        package var count: Int
        /// Mean angular rate, rad/s (the bias, when still).
        package var gyroMean: Vector3
        /// The largest per-axis standard deviation of the angular rate, rad/s.
        package var gyroStd: Double
        /// Mean specific force, m/s².
        package var accelMean: Vector3
        /// Standard deviation of the specific force's magnitude, m/s².
        package var accelMagnitudeStd: Double
        /// The angle between the mean specific force of the first and the last quarter, radians (a slow turn).
        package var turn: Double

        /// Statistics of `samples` (at least one).
        package init(_ samples: [MotionSample]) {
            count = samples.count
            let n = Double(max(samples.count, 1))
            gyroMean = samples.reduce(Vector3.zero) { $0 + $1.gyro } / n
            accelMean = samples.reduce(Vector3.zero) { $0 + $1.accel } / n
            var gyroVariance = Vector3.zero
            var magnitudeMean = 0.0
            for s in samples {
                let d = s.gyro - gyroMean
                gyroVariance += Vector3(d.x * d.x, d.y * d.y, d.z * d.z)
                magnitudeMean += s.accel.norm
            }
            magnitudeMean /= n
            gyroVariance = gyroVariance / n
            gyroStd = max(gyroVariance.x, gyroVariance.y, gyroVariance.z).squareRoot()
            accelMagnitudeStd =
                (samples.reduce(0.0) { $0 + ($1.accel.norm - magnitudeMean) * ($1.accel.norm - magnitudeMean) } / n)
                .squareRoot()
            let quarter = max(samples.count / 4, 1)
            let first = samples.prefix(quarter).reduce(Vector3.zero) { $0 + $1.accel }
            let last = samples.suffix(quarter).reduce(Vector3.zero) { $0 + $1.accel }
            if let a = first.normalized, let b = last.normalized {
                turn = acos(min(max(a.dot(b), -1), 1))
            } else {
                turn = 0
            }
        }
    }

    /// Limits for "the device did not move".
    package struct StillnessLimits: Sendable, Hashable {
        /// Largest per-axis gyroscope standard deviation, rad/s.
        package var gyroStd: Double
        /// Largest standard deviation of the accelerometer's magnitude, m/s².
        package var accelMagnitudeStd: Double
        /// Largest change of the gravity direction over the recording, radians (2°).
        package var turn = 0.035

        /// Limits on the noise; the turn is at most 2°.
        package init(gyroStd: Double = 0.01, accelMagnitudeStd: Double = 0.1) {
            self.gyroStd = gyroStd
            self.accelMagnitudeStd = accelMagnitudeStd
        }

        /// Why `stats` is not still, or `nil` when it is.
        package func violation(_ stats: Stillness) -> String? {
            if stats.gyroStd > gyroStd {
                return "gyro std \(fmt(stats.gyroStd)) rad/s > \(fmt(gyroStd))"
            }
            if stats.accelMagnitudeStd > accelMagnitudeStd {
                return "accel magnitude std \(fmt(stats.accelMagnitudeStd)) m/s² > \(fmt(accelMagnitudeStd))"
            }
            if stats.turn > turn {
                return "gravity direction turned \(fmt(stats.turn * 180 / .pi))° > \(fmt(turn * 180 / .pi))°"
            }
            return nil
        }
    }

    /// The gyroscope bias: the mean angular rate of a still recording.
    ///
    /// - Throws: ``CalibrationFitError`` when there are too few samples or the device moved.
    package static func gyroBias(_ samples: [MotionSample], limits: StillnessLimits = .init())
        throws(CalibrationFitError) -> (bias: Vector3, stats: Stillness)
    {
        guard samples.count >= 20 else {
            throw CalibrationFitError(
                .tooFewSamples, "only \(samples.count) samples arrived; need at least 20 (is the sensor running?)")
        }
        let stats = Stillness(samples)
        if let why = limits.violation(stats) {
            throw CalibrationFitError(.moved, "the device moved (\(why)); put it on a table and run again")
        }
        return (stats.gyroMean, stats)
    }

    // MARK: Six-position accelerometer

    /// The six orientations of the accelerometer procedure: which device axis points up.
    package enum Face: Int, CaseIterable, Sendable, Hashable, CustomStringConvertible {
        case zUp, zDown, yUp, yDown, xUp, xDown

        /// The unit vector the accelerometer reads (divided by g) in this orientation.
        package var up: Vector3 {
            switch self {
            case .zUp: .unitZ
            case .zDown: -.unitZ
            case .yUp: .unitY
            case .yDown: -.unitY
            case .xUp: .unitX
            case .xDown: -.unitX
            }
        }

        /// How to put the device in this orientation, for the prompt.
        package var instruction: String {
            switch self {
            case .zUp: "lay the device flat, screen up"
            case .zDown: "lay the device flat, screen down"
            case .yUp: "stand the device on its bottom edge (top edge up)"
            case .yDown: "stand the device on its top edge (upside down)"
            case .xUp: "stand the device on its left edge (right edge up)"
            case .xDown: "stand the device on its right edge (left edge up)"
            }
        }

        package var description: String {
            switch self {
            case .zUp: "+z up"
            case .zDown: "-z up"
            case .yUp: "+y up"
            case .yDown: "-y up"
            case .xUp: "+x up"
            case .xDown: "-x up"
            }
        }

        /// The face whose axis is within about 25° of the mean specific force `accel`, or `nil`.
        package static func classify(_ accel: Vector3) -> Face? {
            guard let u = accel.normalized else { return nil }
            return allCases.first { u.dot($0.up) > 0.9 }
        }
    }

    /// Offset and scale/misalignment from mean readings in (at least) the six orientations:
    /// `M·(a − offset) ≈ g·up` for every position, solved by linear least squares row by row.
    ///
    /// - Parameters:
    ///   - positions: The mean specific force per face; every face once.
    ///   - gravity: The local gravity, m/s².
    /// - Throws: ``CalibrationFitError`` when a face is missing or the fit is degenerate.
    package static func sixPosition(_ positions: [Face: Vector3], gravity: Double = standardGravity)
        throws(CalibrationFitError) -> (offset: Vector3, matrix: Matrix3)
    {
        let missing = Face.allCases.filter { positions[$0] == nil }
        guard missing.isEmpty else {
            throw CalibrationFitError(
                .missingPositions, "missing positions: \(missing.map(\.description).joined(separator: ", "))")
        }
        let faces = Face.allCases
        // Row r of M and c_r = −(M·offset)_r: g·up_r = M_r·a + c_r.
        let design = faces.map { f -> [Double] in
            let a = positions[f]!
            return [a.x, a.y, a.z, 1]
        }
        var rows: [Vector3] = []
        var c: [Double] = []
        for r in 0..<3 {
            let rhs = faces.map { gravity * $0.up.array[r] }
            guard let x = leastSquares(design, rhs) else {
                throw CalibrationFitError(
                    .degenerate, "the six positions do not determine a fit; repeat them more carefully")
            }
            rows.append(Vector3(x[0], x[1], x[2]))
            c.append(x[3])
        }
        let matrix = Matrix3(rows: rows[0], rows[1], rows[2])
        guard let inverse = matrix.inverse, matrix.determinant > 0 else {
            throw CalibrationFitError(
                .degenerate, "the fitted accelerometer matrix is singular or mirrored; repeat the positions")
        }
        let offset = -inverse.apply(Vector3(c[0], c[1], c[2]))
        return (offset, matrix)
    }

    // MARK: Magnetometer ellipsoid

    /// Hard iron (the centre) and soft iron (a symmetric matrix of determinant 1 that makes the ellipsoid a sphere)
    /// from magnetometer readings taken while the device turns in every direction.
    ///
    /// Fits the quadric `xᵀQx + 2pᵀx = 1` by linear least squares (on centred, scaled points), then takes
    /// `S = (Q/k)^½` normalised to determinant 1, so calibrated readings keep about the field strength.
    ///
    /// - Returns: The hard iron (µT), soft iron, and the radius of the fitted sphere (µT).
    /// - Throws: ``CalibrationFitError`` with too few points or a shape that is not an ellipsoid (too little
    ///   rotation).
    package static func ellipsoid(_ points: [Vector3]) throws(CalibrationFitError)
        -> (hardIron: Vector3, softIron: Matrix3, fieldStrength: Double)
    {
        guard points.count >= 20 else {
            throw CalibrationFitError(.tooFewSamples, "only \(points.count) magnetometer readings; need at least 20")
        }
        let n = Double(points.count)
        let mean = points.reduce(Vector3.zero, +) / n
        let spread = (points.reduce(0.0) { $0 + ($1 - mean).squaredNorm } / n).squareRoot()
        guard spread > 0 else {
            throw CalibrationFitError(.degenerate, "the magnetometer readings do not change; turn the device")
        }
        let design = points.map { point -> [Double] in
            let v = (point - mean) / spread
            return [
                v.x * v.x, v.y * v.y, v.z * v.z, 2 * v.x * v.y, 2 * v.x * v.z, 2 * v.y * v.z, 2 * v.x, 2 * v.y, 2 * v.z,
            ]
        }
        guard let s = leastSquares(design, Array(repeating: 1, count: points.count)) else {
            throw CalibrationFitError(
                .degenerate, "the readings do not determine an ellipsoid; turn the device in every direction")
        }
        let q = Matrix3(rows: Vector3(s[0], s[3], s[4]), Vector3(s[3], s[1], s[5]), Vector3(s[4], s[5], s[2]))
        let p = Vector3(s[6], s[7], s[8])
        guard let qInverse = q.inverse else {
            throw CalibrationFitError(
                .degenerate, "the readings lie on a degenerate shape; turn the device in every direction")
        }
        let centre = -qInverse.apply(p)
        let k = 1 + centre.dot(q.apply(centre))
        let (values, vectors) = symmetricEigen(q)
        guard k > 0, values.allSatisfy({ $0 / k > 0 }) else {
            throw CalibrationFitError(
                .degenerate, "the readings do not form an ellipsoid; turn the device in every direction")
        }
        // (Q/k)^½ in scaled coordinates; in µT the matrix divides by `spread`, which the normalisation removes.
        let roots = values.map { ($0 / k).squareRoot() }
        guard let largest = roots.max(), let smallest = roots.min(), largest / smallest < 2 else {
            throw CalibrationFitError(
                .degenerate,
                "the fitted ellipsoid is implausibly stretched (axes differ more than twice); turn the device in "
                    + "every direction, away from metal")
        }
        let scaled = vectors * Matrix3(diagonal: Vector3(roots[0], roots[1], roots[2])) * vectors.transposed
        let det = scaled.determinant
        let radiusScaled = 1 / cbrt(det)
        let softIron = Matrix3(rowMajor: scaled.elements.map { $0 * radiusScaled }) ?? .identity
        return (mean + centre * spread, softIron, radiusScaled * spread)
    }

    /// The 26 directions of a cube's faces, edges and corners, for "turned in every direction" progress.
    package static let sphereBins: [Vector3] = {
        var bins: [Vector3] = []
        for x in -1...1 {
            for y in -1...1 {
                for z in -1...1 where x != 0 || y != 0 || z != 0 {
                    bins.append(Vector3(Double(x), Double(y), Double(z)).normalized!)
                }
            }
        }
        return bins
    }()

    /// Which of the 26 ``sphereBins`` the directions `points − centre` fall into (nearest bin).
    package static func coveredBins(_ points: [Vector3], centre: Vector3) -> Set<Int> {
        var hit = Set<Int>()
        for point in points {
            guard let u = (point - centre).normalized else { continue }
            var best = 0
            var bestDot = -2.0
            for (i, bin) in sphereBins.enumerated() {
                let d = u.dot(bin)
                if d > bestDot {
                    bestDot = d
                    best = i
                }
            }
            hit.insert(best)
        }
        return hit
    }

    // MARK: Linear algebra

    /// The least-squares solution of `A·x ≈ b` through the normal equations, or `nil` when they are singular.
    static func leastSquares(_ a: [[Double]], _ b: [Double]) -> [Double]? {
        guard let columns = a.first?.count, a.count >= columns else { return nil }
        var normal = Array(repeating: Array(repeating: 0.0, count: columns), count: columns)
        var rhs = Array(repeating: 0.0, count: columns)
        for (row, value) in zip(a, b) {
            for i in 0..<columns {
                rhs[i] += row[i] * value
                for j in i..<columns { normal[i][j] += row[i] * row[j] }
            }
        }
        for i in 0..<columns { for j in 0..<i { normal[i][j] = normal[j][i] } }
        return solve(normal, rhs)
    }

    /// Solves the square system `A·x = b` by Gaussian elimination with partial pivoting.
    static func solve(_ matrix: [[Double]], _ vector: [Double]) -> [Double]? {
        var a = matrix
        var b = vector
        let n = b.count
        let scale = a.flatMap { $0 }.map(abs).max() ?? 0
        guard scale > 0 else { return nil }
        for col in 0..<n {
            var pivot = col
            for r in col + 1..<n where abs(a[r][col]) > abs(a[pivot][col]) { pivot = r }
            guard abs(a[pivot][col]) > 1e-12 * scale else { return nil }
            if pivot != col {
                a.swapAt(pivot, col)
                b.swapAt(pivot, col)
            }
            for r in col + 1..<n {
                let f = a[r][col] / a[col][col]
                guard f != 0 else { continue }
                for k in col..<n { a[r][k] -= f * a[col][k] }
                b[r] -= f * b[col]
            }
        }
        var x = Array(repeating: 0.0, count: n)
        for i in stride(from: n - 1, through: 0, by: -1) {
            var s = b[i]
            for k in i + 1..<n { s -= a[i][k] * x[k] }
            x[i] = s / a[i][i]
        }
        return x.allSatisfy(\.isFinite) ? x : nil
    }

    /// Eigenvalues and eigenvectors (the columns of the returned matrix) of a symmetric matrix, by Jacobi rotations.
    static func symmetricEigen(_ m: Matrix3) -> (values: [Double], vectors: Matrix3) {
        var a = m
        var v = Matrix3.identity
        for _ in 0..<50 {
            var p = 0
            var q = 1
            var largest = abs(a[0, 1])
            for (i, j) in [(0, 2), (1, 2)] where abs(a[i, j]) > largest {
                largest = abs(a[i, j])
                p = i
                q = j
            }
            if largest < 1e-15 * max(abs(a[0, 0]) + abs(a[1, 1]) + abs(a[2, 2]), 1e-300) { break }
            let theta = (a[q, q] - a[p, p]) / (2 * a[p, q])
            let t = (theta >= 0 ? 1 : -1) / (abs(theta) + (theta * theta + 1).squareRoot())
            let c = 1 / (t * t + 1).squareRoot()
            let s = t * c
            var rotation = Matrix3.identity
            rotation[p, p] = c
            rotation[q, q] = c
            rotation[p, q] = s
            rotation[q, p] = -s
            a = rotation.transposed * a * rotation
            v = v * rotation
        }
        return ([a[0, 0], a[1, 1], a[2, 2]], v)
    }
}

/// A fit that cannot be made from the samples: a kind a caller can switch on, and what to do about it.
package typealias CalibrationFitError = TiltError<CalibrationFitErrorKind>

/// Why the fit cannot be made.
///
/// - `tooFewSamples`: too few samples or readings arrived
/// - `moved`: the device moved while it had to lie still
/// - `missingPositions`: some of the six still positions are missing
/// - `degenerate`: the samples do not determine a fit (degenerate, singular, mirrored or implausible)
package enum CalibrationFitErrorKind: Sendable, Hashable {
    case tooFewSamples, moved, missingPositions, degenerate
}

private func fmt(_ x: Double) -> String {
    formatCalibrationNumber((x * 1000).rounded() / 1000)
}
