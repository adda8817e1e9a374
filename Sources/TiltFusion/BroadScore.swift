import TiltCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The orientation error metric of the BROAD benchmark (Laidig et al., Data 2021).
///
/// For each scored row the earth-frame error quaternion is `e = q_est ⊗ q_truth⁻¹`; its total angle is
/// `2·acos(|e_w|)`, its heading part `2·atan(|e_z / e_w|)` and its inclination part `2·acos(√(e_w² + e_z²))`.
/// A trial's score is the root mean square of each, in degrees, over the rows that are in a movement phase and
/// have a known reference. Without a magnetometer heading is unobservable, so the mean heading offset over the
/// scored rows is removed first (the circular mean of the error's rotation about earth up); inclination needs no
/// correction.
package struct BroadScore: Sendable, Hashable {
    /// RMSE of the total error angle, degrees.
    package var total: Double
    /// RMSE of the heading error, degrees.
    package var heading: Double
    /// RMSE of the inclination error, degrees.
    package var inclination: Double
    /// How many rows were scored.
    package var count: Int

    package init(total: Double, heading: Double, inclination: Double, count: Int) {
        self.total = total
        self.heading = heading
        self.inclination = inclination
        self.count = count
    }

    /// Scores estimated orientations against a reference.
    /// - Parameters:
    ///   - estimates: the filter's output, one per row.
    ///   - truth: the reference, one per row; `nil` where it is unknown.
    ///   - movement: which rows are scored; `nil` scores every row with a known reference.
    ///   - removeHeadingOffset: remove the mean heading offset first (6D).
    /// - Returns: the score; every RMSE is NaN and `count` 0 if no row qualifies.
    package static func score(
        estimates: [Quaternion], truth: [Quaternion?], movement: [Bool]?, removeHeadingOffset: Bool
    ) -> BroadScore {
        let n = min(estimates.count, truth.count, movement?.count ?? Int.max)
        var errors: [Quaternion] = []
        errors.reserveCapacity(n)
        for i in 0..<n {
            if let movement, !movement[i] { continue }
            guard let t = truth[i], t.isFinite, t.squaredNorm > 0, estimates[i].isFinite else { continue }
            errors.append(estimates[i].normalized * t.normalized.conjugate)
        }
        guard !errors.isEmpty else { return BroadScore(total: .nan, heading: .nan, inclination: .nan, count: 0) }
        if removeHeadingOffset {
            let offset = meanHeadingOffset(errors)
            let undo = Quaternion(w: cos(offset / 2), x: 0, y: 0, z: -sin(offset / 2))
            errors = errors.map { undo * $0 }
        }
        var total = 0.0
        var heading = 0.0
        var inclination = 0.0
        for e in errors {
            let (t, h, i) = angles(of: e)
            total += t * t
            heading += h * h
            inclination += i * i
        }
        let count = Double(errors.count)
        let deg = 180 / Double.pi
        return BroadScore(
            total: (total / count).squareRoot() * deg, heading: (heading / count).squareRoot() * deg,
            inclination: (inclination / count).squareRoot() * deg, count: errors.count)
    }

    /// Total, heading and inclination angles (radians) of one earth-frame error quaternion.
    package static func angles(of e: Quaternion) -> (total: Double, heading: Double, inclination: Double) {
        let w = abs(e.w)
        let total = 2 * acos(min(1, w))
        let heading = 2 * atan2(abs(e.z), w)
        let inclination = 2 * acos(min(1, (e.w * e.w + e.z * e.z).squareRoot()))
        return (total, heading, inclination)
    }

    /// The circular mean of the errors' rotation angles about earth up, radians in (−π, π].
    ///
    /// Each error's signed heading angle is `2·atan2(e_z, e_w)` (sign of `e` made irrelevant by taking `e_w ≥ 0`);
    /// the mean is taken on the circle, as the direction of the summed unit vectors, so that offsets near ±180°
    /// average correctly.
    package static func meanHeadingOffset(_ errors: [Quaternion]) -> Double {
        var s = 0.0
        var c = 0.0
        for e in errors {
            let sign: Double = e.w < 0 ? -1 : 1
            let angle = 2 * atan2(e.z * sign, e.w * sign)
            s += sin(angle)
            c += cos(angle)
        }
        return atan2(s, c)
    }
}
