import TiltCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Judges whether a magnetometer reading shows the undisturbed Earth field.
///
/// The Earth field has, in one place, a fixed strength and a fixed dip angle (its angle below the horizon). A
/// reading whose strength or dip departs from the reference by more than the tolerances is disturbed (a nearby
/// magnet or iron), and its heading must not be trusted. The reference is taken from the first readings, follows
/// slow changes while undisturbed, and is replaced when a different field has held steady for `newFieldTime`
/// seconds while the device turned (the device moved somewhere else; a magnet that moves with the device would not
/// keep both strength and dip steady while it turns).
@usableFromInline
struct MagneticDisturbanceDetector: Sendable {
    @usableFromInline let normTolerance: Double
    @usableFromInline let dipTolerance: Double
    @usableFromInline let newFieldTime: Double
    @usableFromInline let newFieldRotation: Double
    @usableFromInline var referenceNorm = 0.0
    /// The reference dip as a unit vector (cos, sin) in the vertical plane of the field.
    @usableFromInline var referenceDip = (cos: 1.0, sin: 0.0)
    @usableFromInline let cosDipTolerance: Double
    @usableFromInline var hasReference = false
    @usableFromInline var candidateNorm = 0.0
    @usableFromInline var candidateDip = (cos: 1.0, sin: 0.0)
    @usableFromInline var candidateTime = 0.0
    @usableFromInline var candidateRotation = 0.0
    /// The latest reading, while undisturbed (strength, horizontal and upward components), from which `judge`
    /// starts a candidate when a disturbance begins.
    @usableFromInline var lastUndisturbed: (norm: Double, horizontal: Double, up: Double)? = nil
    /// Set for one sample when the reference was replaced by a new field.
    @usableFromInline var acceptedNewField = false

    @usableFromInline
    init(normTolerance: Double, dipTolerance: Double, newFieldTime: Double, newFieldRotation: Double) {
        self.normTolerance = normTolerance
        self.dipTolerance = dipTolerance
        cosDipTolerance = cos(dipTolerance)
        self.newFieldTime = newFieldTime
        self.newFieldRotation = newFieldRotation
    }

    /// Feeds one reading and returns whether it is disturbed.
    /// - Parameters:
    ///   - norm: field strength, µT.
    ///   - dip: the angle of the field below the horizontal plane (earth frame), as its cosine (horizontal
    ///     strength over strength, never negative) and sine (downward strength over strength).
    ///   - rotationVector: the device's turn since the previous reading (rate × interval), radians; its length is
    ///     taken only while a new field is being judged.
    ///   - dt: seconds since the previous reading.
    @inlinable
    mutating func update(norm: Double, dip: (cos: Double, sin: Double), rotationVector: Vector3, dt: Double) -> Bool {
        acceptedNewField = false
        guard hasReference else {
            hasReference = true
            referenceNorm = norm
            referenceDip = dip
            candidateNorm = norm
            candidateDip = dip
            return false
        }
        let undisturbed =
            abs(norm - referenceNorm) < normTolerance * referenceNorm && Self.within(dip, referenceDip, cosDipTolerance)
        if undisturbed {
            // Follow slow drifts of the local field (10 s).
            let alpha = min(dt * 0.1, 1)
            referenceNorm += (norm - referenceNorm) * alpha
            referenceDip = Self.blend(referenceDip, dip, alpha)
            candidateTime = 0
            candidateRotation = 0
            candidateNorm = norm
            candidateDip = dip
            lastUndisturbed = nil
            return false
        }
        // Disturbed: is it a steady new field?
        if abs(norm - candidateNorm) < normTolerance * candidateNorm && Self.within(dip, candidateDip, cosDipTolerance)
        {
            let alpha = min(dt / 1, 1)
            candidateNorm += (norm - candidateNorm) * alpha
            candidateDip = Self.blend(candidateDip, dip, alpha)
            candidateTime += dt
            candidateRotation += rotationVector.norm
            if candidateTime >= newFieldTime && candidateRotation >= newFieldRotation {
                referenceNorm = candidateNorm
                referenceDip = candidateDip
                candidateTime = 0
                candidateRotation = 0
                acceptedNewField = true
                return false
            }
        } else {
            candidateNorm = norm
            candidateDip = dip
            candidateTime = 0
            candidateRotation = 0
        }
        return true
    }

    /// Feeds one reading, given by its strength and its components in the earth frame, and returns whether it is
    /// disturbed: `update(norm:dip:rotationVector:dt:)` without a division while the field is undisturbed (the
    /// usual case, on every sample).
    /// - Parameters:
    ///   - norm: field strength, µT.
    ///   - horizontal: the horizontal strength, µT (never negative).
    ///   - up: the upward component, µT (negative where the field dips downward).
    @inlinable
    mutating func judge(norm: Double, horizontal: Double, up: Double, rotationVector: Vector3, dt: Double) -> Bool {
        guard hasReference, !acceptedNewField else {
            let inverse = 1 / norm
            return update(
                norm: norm, dip: (cos: horizontal * inverse, sin: -up * inverse), rotationVector: rotationVector,
                dt: dt)
        }
        // within(dip, referenceDip) with dip = (horizontal, −up) / norm, multiplied through by norm.
        let undisturbed =
            abs(norm - referenceNorm) < normTolerance * referenceNorm
            && horizontal * referenceDip.cos - up * referenceDip.sin > cosDipTolerance * norm
        guard undisturbed else {
            if let last = lastUndisturbed {
                // The disturbance starts: the candidate is the last undisturbed reading, as in `update`.
                candidateNorm = last.norm
                candidateDip = (cos: last.horizontal / last.norm, sin: -last.up / last.norm)
                lastUndisturbed = nil
            }
            let inverse = 1 / norm
            return update(
                norm: norm, dip: (cos: horizontal * inverse, sin: -up * inverse), rotationVector: rotationVector,
                dt: dt)
        }
        // Follow slow drifts of the local field (10 s). The dip is blended towards (horizontal, −up) / reference
        // strength rather than / strength: within the tolerance, that changes the blend's rate by under
        // `normTolerance`, and spares the division.
        let alpha = min(dt * 0.1, 1)
        let scale = 1 / referenceNorm
        referenceNorm += (norm - referenceNorm) * alpha
        referenceDip = Self.blend(referenceDip, (cos: horizontal * scale, sin: -up * scale), alpha)
        candidateTime = 0
        candidateRotation = 0
        lastUndisturbed = (norm, horizontal, up)
        return false
    }

    /// Takes a field known by other means to be the Earth field as the reference.
    @inlinable
    mutating func replaceReference(norm: Double, dip: (cos: Double, sin: Double)) {
        referenceNorm = norm
        referenceDip = dip
        candidateTime = 0
        candidateRotation = 0
    }

    /// Whether two angles, given as (cos, sin), differ by less than the angle whose cosine is `cosTolerance`.
    @inlinable
    static func within(_ a: (cos: Double, sin: Double), _ b: (cos: Double, sin: Double), _ cosTolerance: Double)
        -> Bool
    {
        a.cos * b.cos + a.sin * b.sin > cosTolerance
    }

    /// Moves angle `a` a fraction `alpha` of the way towards `b`, both as (cos, sin).
    @inlinable
    static func blend(_ a: (cos: Double, sin: Double), _ b: (cos: Double, sin: Double), _ alpha: Double)
        -> (cos: Double, sin: Double)
    {
        let c = a.cos + (b.cos - a.cos) * alpha
        let s = a.sin + (b.sin - a.sin) * alpha
        let n2 = c * c + s * s
        if abs(n2 - 1) < 0.01 {
            // A small step from a unit vector: one Newton step for 1/√n² (no division, no square root).
            let k = 1.5 - 0.5 * n2
            return (c * k, s * k)
        }
        let n = n2.squareRoot()
        return n > 0 ? (c / n, s / n) : a
    }
}
