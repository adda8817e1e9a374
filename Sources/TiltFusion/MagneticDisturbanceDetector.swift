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
    @usableFromInline var lastUndisturbed: (squaredNorm: Double, horizontal: Double, up: Double)? = nil
    /// Sums of the undisturbed readings `judge` saw since the last `follow()`.
    @usableFromInline var followHorizontal = 0.0
    @usableFromInline var followUp = 0.0
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

    /// Feeds one reading, given by its components in the earth frame, and returns whether it is disturbed: what
    /// `update(norm:dip:rotationVector:dt:)` decides, without a division or a square root while the field is
    /// undisturbed (the usual case, on every sample). The reference then follows the undisturbed readings once per
    /// block, in `follow(count:time:)`.
    /// - Parameters:
    ///   - squaredNorm: the field's squared strength, µT².
    ///   - horizontal: the horizontal strength, µT (never negative).
    ///   - up: the upward component, µT (negative where the field dips downward).
    @inlinable
    mutating func judge(squaredNorm: Double, horizontal: Double, up: Double, rotationVector: Vector3, dt: Double)
        -> Bool
    {
        guard hasReference, !acceptedNewField, cosDipTolerance > 0 else {
            return slowJudge(squaredNorm: squaredNorm, horizontal: horizontal, up: up, rotationVector, dt)
        }
        // |norm − reference| < tolerance · reference, squared; within(dip, referenceDip) with dip = (horizontal,
        // −up) / norm, multiplied through by norm and squared (both sides positive).
        let low = referenceNorm * (1 - normTolerance)
        let high = referenceNorm * (1 + normTolerance)
        let a = horizontal * referenceDip.cos - up * referenceDip.sin
        let undisturbed =
            squaredNorm > low * abs(low) && squaredNorm < high * high && a > 0
            && a * a > cosDipTolerance * cosDipTolerance * squaredNorm
        guard undisturbed else {
            if let last = lastUndisturbed {
                // The disturbance starts: the candidate is the last undisturbed reading, as in `update`.
                let norm = last.squaredNorm.squareRoot()
                candidateNorm = norm
                candidateDip = (cos: last.horizontal / norm, sin: -last.up / norm)
                lastUndisturbed = nil
            }
            return slowJudge(squaredNorm: squaredNorm, horizontal: horizontal, up: up, rotationVector, dt)
        }
        followHorizontal += horizontal
        followUp += up
        // Stores only where needed: most samples find them zero already.
        if candidateTime != 0 || candidateRotation != 0 {
            candidateTime = 0
            candidateRotation = 0
        }
        lastUndisturbed = (squaredNorm, horizontal, up)
        return false
    }

    @usableFromInline
    mutating func slowJudge(
        squaredNorm: Double, horizontal: Double, up: Double, _ rotationVector: Vector3, _ dt: Double
    ) -> Bool {
        let norm = squaredNorm.squareRoot()
        let inverse = norm > 0 ? 1 / norm : 0
        return update(
            norm: norm, dip: (cos: horizontal * inverse, sin: -up * inverse), rotationVector: rotationVector, dt: dt)
    }

    /// Moves the reference towards the mean of the undisturbed readings `judge` saw since the last call, `count`
    /// readings over `time` seconds (time constant 10 s, as `update` does per reading).
    @inlinable
    mutating func follow(count followCount: Double, time followTime: Double) {
        guard followCount > 0 else { return }
        let h = followHorizontal / followCount
        let u = followUp / followCount
        let norm = (h * h + u * u).squareRoot()
        let alpha = min(followTime * 0.1, 1)
        if norm > 0 {
            referenceNorm += (norm - referenceNorm) * alpha
            referenceDip = Self.blend(referenceDip, (cos: h / norm, sin: -u / norm), alpha)
        }
        followHorizontal = 0
        followUp = 0
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
