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
    /// The reference dip as a unit vector (cos, sin) in the vertical plane of the field; set it with
    /// `setReferenceDip`, which keeps the bounds below.
    @usableFromInline var referenceDip = (cos: 1.0, sin: 0.0)
    @usableFromInline let cosDipTolerance: Double
    @usableFromInline let sinDipTolerance: Double
    /// The sines of the reference dip minus and plus the tolerance, each capped at the vertical (±1): a reading
    /// whose downward share (−up / strength) lies strictly between them is within the tolerance (the dip runs from
    /// −90° to 90°, where the sine rises monotonically). `judge` compares them squared, minding their signs.
    @usableFromInline var lowSine = -1.0
    @usableFromInline var highSine = 1.0
    @usableFromInline var hasReference = false
    @usableFromInline var candidateNorm = 0.0
    @usableFromInline var candidateDip = (cos: 1.0, sin: 0.0)
    @usableFromInline var candidateTime = 0.0
    @usableFromInline var candidateRotation = 0.0
    /// The latest reading, while undisturbed (squared strength and upward component), from which `judge`
    /// starts a candidate when a disturbance begins.
    @usableFromInline var lastUndisturbed: (squaredNorm: Double, up: Double)? = nil
    /// Sums of the undisturbed readings `judge` saw since the last `follow()`: squared strength, upward component.
    @usableFromInline var followSquaredNorm = 0.0
    @usableFromInline var followUp = 0.0
    /// Set for one sample when the reference was replaced by a new field.
    @usableFromInline var acceptedNewField = false

    @usableFromInline
    init(normTolerance: Double, dipTolerance: Double, newFieldTime: Double, newFieldRotation: Double) {
        self.normTolerance = normTolerance
        self.dipTolerance = dipTolerance
        cosDipTolerance = cos(dipTolerance)
        sinDipTolerance = sin(dipTolerance)
        self.newFieldTime = newFieldTime
        self.newFieldRotation = newFieldRotation
        setReferenceDip((cos: 1, sin: 0))
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
            setReferenceDip(dip)
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
            setReferenceDip(Self.blend(referenceDip, dip, alpha))
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
                setReferenceDip(candidateDip)
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

    /// Feeds one reading, given by its strength and its upward component in the earth frame, and returns whether
    /// it is disturbed: what `update(norm:dip:rotationVector:dt:)` decides, without a square root or a division
    /// while the field is undisturbed (the usual case, on every sample). The reference then follows the undisturbed
    /// readings once per block, in `follow(count:time:)`.
    /// - Parameters:
    ///   - squaredNorm: the field's squared strength, µT².
    ///   - up: the upward component, µT (negative where the field dips downward).
    @inlinable @inline(__always)
    mutating func judge(squaredNorm: Double, up: Double, rotationVector: Vector3, dt: Double) -> Bool {
        guard hasReference, !acceptedNewField else {
            return slowJudge(squaredNorm: squaredNorm, up: up, rotationVector, dt)
        }
        // |norm − reference| < tolerance · reference, squared; lowSine < −up / norm < highSine, multiplied through
        // by norm and squared where the signs allow.
        let low = referenceNorm * (1 - normTolerance)
        let high = referenceNorm * (1 + normTolerance)
        let down = -up
        let down2 = up * up
        let aboveLow =
            lowSine >= 0
            ? down > 0 && down2 > lowSine * lowSine * squaredNorm
            : down >= 0 || down2 < lowSine * lowSine * squaredNorm
        let belowHigh =
            highSine > 0
            ? down <= 0 || down2 < highSine * highSine * squaredNorm
            : down < 0 && down2 > highSine * highSine * squaredNorm
        let undisturbed = squaredNorm > low * abs(low) && squaredNorm < high * high && aboveLow && belowHigh
        guard undisturbed else {
            return disturbedJudge(squaredNorm: squaredNorm, up: up, rotationVector, dt)
        }
        followSquaredNorm += squaredNorm
        followUp += up
        // Stores only where needed: most samples find them zero already.
        if candidateTime != 0 || candidateRotation != 0 {
            candidateTime = 0
            candidateRotation = 0
        }
        lastUndisturbed = (squaredNorm, up)
        return false
    }

    /// `judge` for a reading outside the tolerances.
    @usableFromInline
    mutating func disturbedJudge(squaredNorm: Double, up: Double, _ rotationVector: Vector3, _ dt: Double) -> Bool {
        if let last = lastUndisturbed {
            // The disturbance starts: the candidate is the last undisturbed reading, as in `update`.
            let norm = last.squaredNorm.squareRoot()
            let horizontal = max(last.squaredNorm - last.up * last.up, 0).squareRoot()
            candidateNorm = norm
            candidateDip = (cos: horizontal / norm, sin: -last.up / norm)
            lastUndisturbed = nil
        }
        return slowJudge(squaredNorm: squaredNorm, up: up, rotationVector, dt)
    }

    @usableFromInline
    mutating func slowJudge(squaredNorm: Double, up: Double, _ rotationVector: Vector3, _ dt: Double) -> Bool {
        let norm = squaredNorm.squareRoot()
        let horizontal = max(squaredNorm - up * up, 0).squareRoot()
        let inverse = norm > 0 ? 1 / norm : 0
        return update(
            norm: norm, dip: (cos: horizontal * inverse, sin: -up * inverse), rotationVector: rotationVector, dt: dt)
    }

    /// Moves the reference towards the mean of the undisturbed readings `judge` saw since the last call, `count`
    /// readings over `time` seconds (time constant 10 s, as `update` does per reading).
    @inlinable
    mutating func follow(count followCount: Double, time followTime: Double) {
        guard followCount > 0 else { return }
        // The readings' RMS strength and mean upward component: the strength varies by noise alone, a fraction of
        // a per cent, so this is their mean strength and dip to far better than the tolerances.
        let norm = (followSquaredNorm / followCount).squareRoot()
        let u = followUp / followCount
        let alpha = min(followTime * 0.1, 1)
        if norm > 0 {
            let sine = max(-1, min(1, -u / norm))
            referenceNorm += (norm - referenceNorm) * alpha
            setReferenceDip(Self.blend(referenceDip, (cos: (1 - sine * sine).squareRoot(), sin: sine), alpha))
        }
        followSquaredNorm = 0
        followUp = 0
    }

    /// Sets the reference dip and the bounds `judge` compares with.
    @inlinable
    mutating func setReferenceDip(_ dip: (cos: Double, sin: Double)) {
        referenceDip = dip
        // sin(δ ∓ t) = sin δ cos t ∓ cos δ sin t, capped at ∓1 once δ ∓ t passes ∓90° (cos(δ ∓ t) ≤ 0).
        let c = cosDipTolerance
        let s = sinDipTolerance
        lowSine = dip.cos * c + dip.sin * s > 0 ? dip.sin * c - dip.cos * s : -1
        highSine = dip.cos * c - dip.sin * s > 0 ? dip.sin * c + dip.cos * s : 1
    }

    /// Takes a field known by other means to be the Earth field as the reference.
    @inlinable
    mutating func replaceReference(norm: Double, dip: (cos: Double, sin: Double)) {
        referenceNorm = norm
        setReferenceDip(dip)
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
