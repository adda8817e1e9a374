import Foundation
import Testing
import TiltCore
import TiltTestKit

/// Algebraic and geometric properties of `Quaternion`, each checked on 1000 seeded random cases.
///
/// A failure names the test's seed and the case; `TILT_SEED=N` runs every property with seed N instead.
@Suite struct QuaternionPropertyTests {
    static let cases = 1000

    /// Runs `property` on `cases` random cases; records the first failing case (its message) and stops there.
    private func forAll(
        seed: UInt64, _ property: (inout SeededGenerator) -> String?, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let seed = SeededGenerator.seed(default: seed)
        var rng = SeededGenerator(seed: seed)
        for index in 0..<Self.cases {
            if let failure = property(&rng) {
                Issue.record("seed \(seed), case \(index): \(failure)", sourceLocation: sourceLocation)
                return
            }
        }
    }

    private func distance(_ a: Quaternion, _ b: Quaternion) -> Double {
        let d = Quaternion(w: a.w - b.w, x: a.x - b.x, y: a.y - b.y, z: a.z - b.z)
        return d.norm
    }

    /// The distance between two rotations, treating q and −q as equal.
    private func rotationDistance(_ a: Quaternion, _ b: Quaternion) -> Double {
        min(distance(a, b), distance(a, Quaternion(w: -b.w, x: -b.x, y: -b.y, z: -b.z)))
    }

    /// `angle` wrapped into `(-π, π]`.
    private func wrapped(_ angle: Double) -> Double {
        var a = angle.truncatingRemainder(dividingBy: 2 * .pi)
        if a > .pi { a -= 2 * .pi }
        if a <= -.pi { a += 2 * .pi }
        return a
    }

    /// The rotation matrix of a unit quaternion by the textbook formula, applied to `v`: an oracle for `rotate`.
    private func matrixRotate(_ q: Quaternion, _ v: Vector3) -> Vector3 {
        let (w, x, y, z) = (q.w, q.x, q.y, q.z)
        let r0 = Vector3(1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y))
        let r1 = Vector3(2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x))
        let r2 = Vector3(2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y))
        return Vector3(r0.dot(v), r1.dot(v), r2.dot(v))
    }

    @Test func productOfUnitQuaternionsIsUnit() {
        forAll(seed: 1) { rng in
            let a = rng.unitQuaternion()
            let b = rng.unitQuaternion()
            let n = (a * b).norm
            return abs(n - 1) < 1e-14 ? nil : "|\(a) * \(b)| = \(n)"
        }
    }

    @Test func productIsAssociative() {
        forAll(seed: 2) { rng in
            let (a, b, c) = (rng.unitQuaternion(), rng.unitQuaternion(), rng.unitQuaternion())
            let d = distance((a * b) * c, a * (b * c))
            return d < 1e-14 ? nil : "(ab)c and a(bc) differ by \(d) for a=\(a) b=\(b) c=\(c)"
        }
    }

    @Test func productWithInverseIsIdentity() {
        forAll(seed: 3) { rng in
            let q = rng.unitQuaternion()
            let right = distance(q * q.conjugate, .identity)
            let left = distance(q.conjugate * q, .identity)
            return max(left, right) < 1e-15 ? nil : "q q⁻¹ is \(right) and q⁻¹ q \(left) from identity for \(q)"
        }
    }

    @Test func rotationPreservesLengthAndMatchesTheMatrix() {
        forAll(seed: 4) { rng in
            let q = rng.unitQuaternion()
            let v = rng.vector(scale: 10)
            let r = q.rotate(v)
            let lengthError = abs(r.norm - v.norm)
            let matrixError = (r - matrixRotate(q, v)).norm
            let roundTrip = (q.inverseRotate(r) - v).norm
            guard lengthError < 1e-13, matrixError < 1e-13, roundTrip < 1e-13 else {
                return "q=\(q) v=\(v): length error \(lengthError), matrix error \(matrixError), inverse \(roundTrip)"
            }
            return nil
        }
    }

    @Test func compositionRotatesLikeSuccessiveRotations() {
        forAll(seed: 5) { rng in
            let (a, b) = (rng.unitQuaternion(), rng.unitQuaternion())
            let v = rng.vector(scale: 5)
            let d = ((a * b).rotate(v) - a.rotate(b.rotate(v))).norm
            return d < 1e-13 ? nil : "(a b) v and a (b v) differ by \(d)"
        }
    }

    @Test func rotationVectorRoundTripsBelowPi() {
        forAll(seed: 6) { rng in
            let v = rng.direction() * Double.random(in: 0...(Double.pi - 1e-6), using: &rng)
            let q = Quaternion(rotationVector: v)
            let back = q.rotationVector
            guard abs(q.norm - 1) < 1e-15, (back - v).norm < 1e-12 else {
                return "v=\(v): |q| = \(q.norm), log(exp(v)) = \(back)"
            }
            return nil
        }
    }

    @Test func rotationVectorRoundTripsNearZero() {
        forAll(seed: 7) { rng in
            let length = pow(10, Double.random(in: -300 ... -4, using: &rng))
            let v = rng.direction() * length
            let q = Quaternion(rotationVector: v)
            let back = q.rotationVector
            let relative = (back - v).norm / length
            guard abs(q.norm - 1) < 1e-15, relative < 1e-12, q.w > 0 else {
                return "|v|=\(length): q=\(q), log(exp(v)) = \(back), relative error \(relative)"
            }
            return nil
        }
    }

    @Test func rotationVectorRoundTripsNearPi() {
        forAll(seed: 8) { rng in
            let axis = rng.direction()
            let gap = pow(10, Double.random(in: -12 ... -3, using: &rng))
            let below = axis * (Double.pi - gap)
            let q = Quaternion(rotationVector: below)
            let back = q.rotationVector
            // Just below π the log map must give the same vector (to the precision cos and atan2 allow there).
            guard (back - below).norm < 1e-9 else { return "π − \(gap): log(exp(v)) = \(back), v = \(below)" }
            // Just above π it takes the short way: the same rotation, the angle 2π − |v| about −axis.
            let above = axis * (Double.pi + gap)
            let short = Quaternion(rotationVector: above).rotationVector
            let expected = axis * -(Double.pi - gap)
            guard (short - expected).norm < 1e-9 else { return "π + \(gap): log(exp(v)) = \(short), not \(expected)" }
            // At exactly π, v and −v are the same rotation; either answer is right.
            let half = Quaternion(rotationVector: axis * .pi).rotationVector
            guard min((half - axis * .pi).norm, (half + axis * .pi).norm) < 1e-9 else {
                return "π about \(axis): log(exp(v)) = \(half)"
            }
            return nil
        }
    }

    @Test func expOfLogIsTheSameRotation() {
        forAll(seed: 9) { rng in
            let q = rng.unitQuaternion()
            let back = Quaternion(rotationVector: q.rotationVector)
            let d = rotationDistance(back, q)
            guard d < 1e-13, q.rotationVector.norm <= .pi + 1e-12 else {
                return "q=\(q): exp(log q) = \(back) (distance \(d)), |log q| = \(q.rotationVector.norm)"
            }
            return nil
        }
    }

    @Test func slerpHitsItsEndpoints() {
        forAll(seed: 10) { rng in
            let (a, b) = (rng.unitQuaternion(), rng.unitQuaternion())
            let start = distance(a.slerp(to: b, t: 0), a)
            let end = rotationDistance(a.slerp(to: b, t: 1), b)
            return max(start, end) < 1e-13 ? nil : "a=\(a) b=\(b): start off by \(start), end off by \(end)"
        }
    }

    @Test func slerpTurnsAtConstantAngularSpeed() {
        forAll(seed: 11) { rng in
            let a = rng.unitQuaternion()
            // Include nearly equal endpoints, where slerp takes its linear branch.
            let small = Bool.random(using: &rng)
            let spread =
                small ? pow(10, Double.random(in: -9 ... -5, using: &rng)) : Double.random(in: 0...3, using: &rng)
            let b = a * Quaternion(rotationVector: rng.direction() * spread)
            let total = a.angle(to: b)
            let t = Double.random(in: 0...1, using: &rng)
            let s = Double.random(in: 0...1, using: &rng)
            let qt = a.slerp(to: b, t: t)
            let qs = a.slerp(to: b, t: s)
            let tolerance = 1e-12 + total * 1e-9
            guard abs(qt.norm - 1) < 1e-14 else { return "slerp at \(t) has norm \(qt.norm)" }
            guard abs(a.angle(to: qt) - t * total) < tolerance else {
                return "angle at t=\(t) is \(a.angle(to: qt)), expected \(t * total) (total \(total))"
            }
            // Between any two instants it turns by |t − s| of the whole, about the same axis.
            guard abs(qs.angle(to: qt) - abs(t - s) * total) < tolerance else {
                return "angle between t=\(s) and t=\(t) is \(qs.angle(to: qt)), expected \(abs(t - s) * total)"
            }
            return nil
        }
    }

    @Test func slerpTakesTheShortWay() {
        forAll(seed: 12) { rng in
            let (a, b) = (rng.unitQuaternion(), rng.unitQuaternion())
            let total = a.angle(to: b)
            let mid = a.slerp(to: b, t: 0.5)
            let d = abs(a.angle(to: mid) - total / 2)
            return d < 1e-12 && total <= .pi ? nil : "halfway is \(a.angle(to: mid)) from a; whole is \(total)"
        }
    }

    @Test func negatedQuaternionIsTheSameRotation() {
        forAll(seed: 13) { rng in
            let q = rng.unitQuaternion()
            let n = Quaternion(w: -q.w, x: -q.x, y: -q.y, z: -q.z)
            let v = rng.vector(scale: 3)
            let rotated = (q.rotate(v) - n.rotate(v)).norm
            let angle = abs(q.angle - n.angle)
            let log = (q.rotationVector - n.rotationVector).norm
            let (e, f) = (q.euler, n.euler)
            let euler = max(abs(e.roll - f.roll), abs(e.pitch - f.pitch), abs(e.yaw - f.yaw))
            guard rotated < 1e-13, angle < 1e-13, log < 1e-12, euler < 1e-13, n.canonical == q.canonical else {
                return "q=\(q): rotate \(rotated), angle \(angle), log \(log), euler \(euler)"
            }
            return nil
        }
    }

    @Test func eulerRoundTripsAwayFromGimbalLock() {
        forAll(seed: 14) { rng in
            let e = EulerAngles(
                roll: Double.random(in: -Double.pi...Double.pi, using: &rng),
                pitch: Double.random(in: (-Double.pi / 2 + 0.01)...(Double.pi / 2 - 0.01), using: &rng),
                yaw: Double.random(in: -Double.pi...Double.pi, using: &rng))
            let back = Quaternion(euler: e).euler
            let error = max(
                abs(wrapped(back.roll - e.roll)), abs(back.pitch - e.pitch), abs(wrapped(back.yaw - e.yaw)))
            return error < 1e-12 ? nil : "\(e) came back as \(back) (error \(error))"
        }
    }

    @Test func quaternionFromItsEulerAnglesIsTheSameRotation() {
        forAll(seed: 15) { rng in
            let q = rng.unitQuaternion()
            let e = q.euler
            guard abs(e.pitch) < .pi / 2 - 0.01 else { return nil }
            let d = rotationDistance(Quaternion(euler: e), q)
            return d < 1e-12 ? nil : "q=\(q) → \(e) → distance \(d)"
        }
    }
}
