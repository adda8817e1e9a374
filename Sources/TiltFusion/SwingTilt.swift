import TiltCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The raw (unsmoothed, unclamped) tilt of a rotation from the reference pose: how far, and about which axis in the
/// screen's plane, the screen has tipped, whatever it turned within its own plane.
///
/// **Swing, not rotation vector.** The relative rotation `r` splits as `r = twist ⊗ swing`: `twist` turns about the
/// screen normal (z), `swing` tips about an axis in the screen plane, in the device's own x/y axes. The tilt is the
/// swing's rotation vector, so turning the device in its plane, by any amount, leaves it alone. The x/y of `r`'s own
/// rotation vector (the tilt before issue 19) mix the turn in: after a turn φ a tilt shows rotated by φ/2, and as φ
/// passes ±π the rotation vector's direction flips, so the tilt jumped (−0.42 → +0.44 rad in one sample of the BROAD
/// fixture). No continuous, odd function of `r` can follow the rotation vector there: a half-turn is its own inverse,
/// so an odd `f` has `f(r) = −f(r) = 0` at every half-turn, including a device turned 180° in its plane and then
/// tilted. Dropping the twist leaves one singular pose instead of a whole family.
///
/// **Folding back past 90°.** The swing's axis is undefined where the screen faces exactly away from the reference
/// (swing angle π), and flips as a path goes through that pose. The same argument (that swing is its own mirror
/// image) forces the tilt to zero there. So the tilt is the swing's rotation vector `θ·u` up to θ = 90° (exactly the
/// old value for a pure tilt, and for every small rotation to first order), and past 90° it folds back as
/// `(π/2)·sin θ·u`, reaching zero face-away. At 90° both are `(π/2)·u`: continuous, with a kink only in the slope,
/// where the default soft clamp is already at 99.6 % of its limit (`0.5·tanh(π) = 0.498`), so beyond 90° the exact
/// angle hardly shows until the screen is nearly face-away. The map has no state: the same pose always gives the same
/// tilt, at rest too, and it is odd (tipping the other way negates it) and invariant under `r → −r`.
///
/// In closed form, with `r = (w, x, y, z)`: `n = √(w² + z²) = cos(θ/2)`, `s = √(x² + y²) = sin(θ/2)` and
/// `Σ = (wx + zy, wy − zx) = n·s·u`; the tilt is `θ/(n·s)·Σ` while `n ≥ s` and `π·Σ` beyond. Neither branch divides
/// by a small number.
package enum SwingTilt {
    /// The tilt of `relative` (the rotation from the reference pose, `reference* ⊗ attitude`), radians.
    package static func of(_ relative: Quaternion) -> AttitudeFrame.Tilt {
        let r = relative.normalized
        let n = (r.w * r.w + r.z * r.z).squareRoot()
        let s = (r.x * r.x + r.y * r.y).squareRoot()
        let sigmaX = r.w * r.x + r.z * r.y
        let sigmaY = r.w * r.y - r.z * r.x
        let factor: Double
        if n < s {
            factor = .pi  // past 90°: (π/2)·sin θ·u = π·Σ
        } else if s < 1e-9 {
            factor = 2 / (n * n)  // θ/(n·s) as s → 0; the next term is s²/(3n²) smaller
        } else {
            factor = 2 * atan2(s, n) / (n * s)
        }
        return AttitudeFrame.Tilt(x: factor * sigmaX, y: factor * sigmaY)
    }
}
