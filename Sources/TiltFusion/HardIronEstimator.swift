import TiltCore

/// Learns, online, a magnetometer offset that is fixed in the device frame (hard iron: a magnet or magnetised part
/// attached to the device), while the device turns, and says how far the estimate can be trusted.
///
/// Model: a reading is `m = b + Rᵀ·h`, where `b` is the offset (device frame), `R` the device → almost-inertial
/// rotation that the gyroscope integrates, and `h` the Earth field in that almost-inertial frame. Rotated into that
/// frame, `R·m = R·b + h` is linear in the six unknowns `b` and `h`. Because `RᵀR = I`, the least-squares normal
/// equations need only five running sums, each exponentially forgotten with time constant `timeConstant`: the weight
/// `n`, `Σm`, `ΣR` (a 3×3 matrix, kept as its columns), `ΣR·m` and `Σ|m|²`. Eliminating `h` gives
/// `(n²·I − PᵀP)·b = n·Σm − Pᵀ·ΣR·m` with `P = ΣR`, a 3×3 solve.
///
/// Confidence has two parts. The conditioning `D = n²·(n²·I − PᵀP)⁻¹` is 1 per axis when the device has turned every
/// way and grows without bound along an axis it has not turned about (an offset along the only rotation axis cannot
/// be told from the Earth field). The fit residual measures how well the model holds: a field disturbed in the earth
/// frame (a magnet the device passes) does not follow it. The offset's uncertainty is the residual RMS scaled by
/// `√(trace D / 3)`; the estimate is trusted when that is small, the residual too, and the implied Earth field is as
/// strong as the reference.
///
/// The sums are updated in blocks of a few samples (the rotation changes little within one); the solve runs once per
/// block.
@usableFromInline
struct HardIronEstimator: Sendable {
    /// The sums the fit is solved from, over a stretch of readings: the count `n`, Σm, R's columns summed (`rx`, `ry`,
    /// `rz`: P = ΣR), ΣR·m and Σ|m|².
    @usableFromInline
    struct Sums: Sendable {
        @usableFromInline var n = 0.0
        @usableFromInline var m: Vector3 = .zero
        @usableFromInline var rx: Vector3 = .zero
        @usableFromInline var ry: Vector3 = .zero
        @usableFromInline var rz: Vector3 = .zero
        @usableFromInline var rm: Vector3 = .zero
        @usableFromInline var m2 = 0.0

        @inlinable
        init() {}

        /// These sums with their weight multiplied by `keep`, plus `other`.
        @inlinable
        func forgetting(by keep: Double, adding other: Sums) -> Sums {
            var sums = Sums()
            sums.n = n * keep + other.n
            sums.m = m * keep + other.m
            sums.rx = rx * keep + other.rx
            sums.ry = ry * keep + other.ry
            sums.rz = rz * keep + other.rz
            sums.rm = rm * keep + other.rm
            sums.m2 = m2 * keep + other.m2
            return sums
        }

        /// Σ|m − b − Rᵀh|² over the readings, from the sums alone.
        @inlinable
        func residualSquares(offset b: Vector3, field h: Vector3) -> Double {
            let pb = rx * b.x + ry * b.y + rz * b.z
            return m2 + n * (b.squaredNorm + h.squaredNorm) - 2 * b.dot(m) - 2 * h.dot(rm) + 2 * h.dot(pb)
        }
    }

    @usableFromInline let timeConstant: Double
    /// The forgetting sums the solution comes from.
    @usableFromInline var sums = Sums()
    /// The current block, not yet forgotten into the sums.
    @usableFromInline var block = Sums()
    /// The current block's duration, s.
    @usableFromInline var blockTime = 0.0
    /// How long the blocks have departed from the solution in a row, s.
    @usableFromInline var departedTime = 0.0

    /// The latest solution: the offset, µT, device frame.
    @usableFromInline var offset: Vector3 = .zero
    /// The Earth field in the almost-inertial frame, µT.
    @usableFromInline var field: Vector3 = .zero
    /// RMS of the fit residual, µT (infinite before a solution).
    @usableFromInline var residual = Double.infinity
    /// Uncertainty of the offset along its worst direction, µT (infinite before a solution or without rotation).
    @usableFromInline var uncertainty = Double.infinity

    @usableFromInline
    init(timeConstant: Double) {
        self.timeConstant = timeConstant
    }

    /// Adds one reading: `m` in the device frame and `rm`, R·m (R: device → almost-inertial). The block's sums of
    /// R's columns, `block.rx`, `block.ry`, `block.rz`, are the caller's to set before the block closes (it sums them
    /// anyway).
    @inlinable @inline(__always)
    mutating func add(_ m: Vector3, rm: Vector3, dt: Double) {
        block.n += 1
        block.m = block.m + m
        block.rm = block.rm + rm
        block.m2 += m.squaredNorm
        blockTime += dt
    }

    /// Drops the current block's readings.
    @inlinable
    mutating func clearBlock() {
        block = Sums()
        blockTime = 0
    }

    /// Forgets the old sums by the block's duration, adds the block and solves. Returns whether a solution exists.
    ///
    /// When the block's readings depart from the current solution by more than `changeThreshold` (RMS, µT) for
    /// `changeTime` seconds in a row, the offset has changed (a magnet attached or removed) or the field is disturbed:
    /// the old sums are dropped, so the new offset is learned from the readings since then alone rather than
    /// against an exponential tail of the old one.
    @inlinable
    @discardableResult
    mutating func closeBlock(changeThreshold: Double, changeTime: Double) -> Bool {
        guard block.n > 0 else { return false }
        if residual.isFinite {
            if block.residualSquares(offset: offset, field: field) > changeThreshold * changeThreshold * block.n {
                departedTime += blockTime
            } else {
                departedTime = 0
            }
            if departedTime > changeTime {
                sums = Sums()
                departedTime = 0
            }
        }
        sums = sums.forgetting(by: max(0, 1 - blockTime / timeConstant), adding: block)
        block = Sums()
        blockTime = 0
        return solve()
    }

    @inlinable
    mutating func solve() -> Bool {
        let n = sums.n
        let n2 = n * n
        // A = n²·I − PᵀP (symmetric), with P's columns sums.rx, sums.ry, sums.rz.
        let a11 = n2 - sums.rx.squaredNorm
        let a22 = n2 - sums.ry.squaredNorm
        let a33 = n2 - sums.rz.squaredNorm
        let a12 = -sums.rx.dot(sums.ry)
        let a13 = -sums.rx.dot(sums.rz)
        let a23 = -sums.ry.dot(sums.rz)
        // Adjugate (cofactors) of the symmetric A.
        let c11 = a22 * a33 - a23 * a23
        let c22 = a11 * a33 - a13 * a13
        let c33 = a11 * a22 - a12 * a12
        let c12 = a13 * a23 - a12 * a33
        let c13 = a12 * a23 - a13 * a22
        let c23 = a12 * a13 - a11 * a23
        let det = a11 * c11 + a12 * c12 + a13 * c13
        guard det > 1e-12 * n2 * n2 * n2, det.isFinite else {
            uncertainty = .infinity
            return false
        }
        let inv = 1 / det
        let rhs = sums.m * n - Vector3(sums.rx.dot(sums.rm), sums.ry.dot(sums.rm), sums.rz.dot(sums.rm))
        let b = Vector3(
            (c11 * rhs.x + c12 * rhs.y + c13 * rhs.z) * inv,
            (c12 * rhs.x + c22 * rhs.y + c23 * rhs.z) * inv,
            (c13 * rhs.x + c23 * rhs.y + c33 * rhs.z) * inv)
        // h = (ΣR·m − P·b) / n.
        let h = (sums.rm - (sums.rx * b.x + sums.ry * b.y + sums.rz * b.z)) * (1 / n)
        // Σ|m − b − Rᵀh|² = Σ|m|² + n|b|² + n|h|² − 2b·Σm − 2h·ΣRm + 2h·(P·b).
        let rss = sums.residualSquares(offset: b, field: h)
        offset = b
        field = h
        residual = (max(rss, 0) / n).squareRoot()
        // trace(D) = n²·trace(A⁻¹).
        let traceD = n2 * (c11 + c22 + c33) * inv
        uncertainty = residual * (max(traceD, 3) / 3).squareRoot()
        return true
    }
}
