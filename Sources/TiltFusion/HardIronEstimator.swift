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
    @usableFromInline let timeConstant: Double
    @usableFromInline var n = 0.0
    @usableFromInline var sumM: Vector3 = .zero
    @usableFromInline var sumRx: Vector3 = .zero
    @usableFromInline var sumRy: Vector3 = .zero
    @usableFromInline var sumRz: Vector3 = .zero
    @usableFromInline var sumRM: Vector3 = .zero
    @usableFromInline var sumM2 = 0.0
    /// The current block, not yet forgotten into the sums.
    @usableFromInline var blockN = 0.0
    @usableFromInline var blockM: Vector3 = .zero
    @usableFromInline var blockRx: Vector3 = .zero
    @usableFromInline var blockRy: Vector3 = .zero
    @usableFromInline var blockRz: Vector3 = .zero
    @usableFromInline var blockRM: Vector3 = .zero
    @usableFromInline var blockM2 = 0.0
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
    /// R's columns, `blockRx`, `blockRy`, `blockRz`, are the caller's to set before the block closes (it sums them
    /// anyway).
    @inlinable @inline(__always)
    mutating func add(_ m: Vector3, rm: Vector3, dt: Double) {
        blockN += 1
        blockM = blockM + m
        blockRM = blockRM + rm
        blockM2 += m.squaredNorm
        blockTime += dt
    }

    /// Drops the current block's readings.
    @inlinable
    mutating func clearBlock() {
        blockN = 0
        blockM = .zero
        blockRx = .zero
        blockRy = .zero
        blockRz = .zero
        blockRM = .zero
        blockM2 = 0
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
        guard blockN > 0 else { return false }
        if residual.isFinite {
            // Σ|m − b − Rᵀh|² over the block, from its sums, as in `solve`.
            let b = offset
            let h = field
            let pb = blockRx * b.x + blockRy * b.y + blockRz * b.z
            let rss =
                blockM2 + blockN * (b.squaredNorm + h.squaredNorm) - 2 * b.dot(blockM) - 2 * h.dot(blockRM)
                + 2 * h.dot(pb)
            if rss > changeThreshold * changeThreshold * blockN {
                departedTime += blockTime
            } else {
                departedTime = 0
            }
            if departedTime > changeTime {
                n = 0
                sumM = .zero
                sumRx = .zero
                sumRy = .zero
                sumRz = .zero
                sumRM = .zero
                sumM2 = 0
                departedTime = 0
            }
        }
        let keep = max(0, 1 - blockTime / timeConstant)
        n = n * keep + blockN
        sumM = sumM * keep + blockM
        sumRx = sumRx * keep + blockRx
        sumRy = sumRy * keep + blockRy
        sumRz = sumRz * keep + blockRz
        sumRM = sumRM * keep + blockRM
        sumM2 = sumM2 * keep + blockM2
        blockN = 0
        blockM = .zero
        blockRx = .zero
        blockRy = .zero
        blockRz = .zero
        blockRM = .zero
        blockM2 = 0
        blockTime = 0
        return solve()
    }

    @inlinable
    mutating func solve() -> Bool {
        let n2 = n * n
        // A = n²·I − PᵀP (symmetric), with P's columns sumRx, sumRy, sumRz.
        let a11 = n2 - sumRx.squaredNorm
        let a22 = n2 - sumRy.squaredNorm
        let a33 = n2 - sumRz.squaredNorm
        let a12 = -sumRx.dot(sumRy)
        let a13 = -sumRx.dot(sumRz)
        let a23 = -sumRy.dot(sumRz)
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
        let rhs = sumM * n - Vector3(sumRx.dot(sumRM), sumRy.dot(sumRM), sumRz.dot(sumRM))
        let b = Vector3(
            (c11 * rhs.x + c12 * rhs.y + c13 * rhs.z) * inv,
            (c12 * rhs.x + c22 * rhs.y + c23 * rhs.z) * inv,
            (c13 * rhs.x + c23 * rhs.y + c33 * rhs.z) * inv)
        // h = (ΣR·m − P·b) / n.
        let h = (sumRM - (sumRx * b.x + sumRy * b.y + sumRz * b.z)) * (1 / n)
        // Σ|m − b − Rᵀh|² = Σ|m|² + n|b|² + n|h|² − 2b·Σm − 2h·ΣRm + 2h·(P·b).
        let pb = sumRx * b.x + sumRy * b.y + sumRz * b.z
        let rss = sumM2 + n * (b.squaredNorm + h.squaredNorm) - 2 * b.dot(sumM) - 2 * h.dot(sumRM) + 2 * h.dot(pb)
        offset = b
        field = h
        residual = (max(rss, 0) / n).squareRoot()
        // trace(D) = n²·trace(A⁻¹).
        let traceD = n2 * (c11 + c22 + c33) * inv
        uncertainty = residual * (max(traceD, 3) / 3).squareRoot()
        return true
    }
}
