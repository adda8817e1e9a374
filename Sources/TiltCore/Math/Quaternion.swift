#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A Hamilton quaternion `w + xi + yj + zk`.
///
/// Attitude quaternions in tilt rotate device-frame vectors into the earth frame (ENU), the convention of
/// BROAD and VQF: `earth = q.rotate(device)`. Composition follows Hamilton's product, so `a * b` applies `b` first.
public struct Quaternion: Hashable, Sendable, CustomStringConvertible {
    public var w: Double
    public var x: Double
    public var y: Double
    public var z: Double

    @inlinable
    public init(w: Double, x: Double, y: Double, z: Double) {
        self.w = w
        self.x = x
        self.y = y
        self.z = z
    }

    public static let identity = Quaternion(w: 1, x: 0, y: 0, z: 0)

    /// A rotation of `angle` radians about `axis` (any non-zero length); the identity for a zero axis.
    public init(axis: Vector3, angle: Double) {
        guard let n = axis.normalized else {
            self = .identity
            return
        }
        let h = angle / 2
        let s = sin(h)
        self.init(w: cos(h), x: n.x * s, y: n.y * s, z: n.z * s)
    }

    /// The rotation whose axis is the direction of `v` and whose angle is its length (the exponential map).
    public init(rotationVector v: Vector3) {
        let angle = v.norm
        if angle < 1e-9 {
            // Second-order expansion keeps tiny rotations exact to double precision.
            let h = v * 0.5
            self = Quaternion(w: 1 - angle * angle / 8, x: h.x, y: h.y, z: h.z).normalized
        } else {
            self.init(axis: v, angle: angle)
        }
    }

    /// The components as an array `[w, x, y, z]`, the wire and log order.
    public var array: [Double] { [w, x, y, z] }

    /// The vector part `(x, y, z)`.
    @inlinable public var vector: Vector3 { Vector3(x, y, z) }

    @inlinable public var squaredNorm: Double { w * w + x * x + y * y + z * z }
    @inlinable public var norm: Double { squaredNorm.squareRoot() }

    /// The quaternion scaled to unit length; the identity if its length is zero or not finite.
    @inlinable
    public var normalized: Quaternion {
        let n = norm
        guard n > 0, n.isFinite else { return .identity }
        return Quaternion(w: w / n, x: x / n, y: y / n, z: z / n)
    }

    @inlinable public var isFinite: Bool { w.isFinite && x.isFinite && y.isFinite && z.isFinite }

    /// The conjugate, which is the inverse of a unit quaternion.
    @inlinable public var conjugate: Quaternion { Quaternion(w: w, x: -x, y: -y, z: -z) }

    /// The same rotation with a non-negative scalar part (q and -q are the same rotation).
    @inlinable public var canonical: Quaternion { w < 0 ? Quaternion(w: -w, x: -x, y: -y, z: -z) : self }

    /// The Hamilton product `a ⊗ b`: the rotation `b` followed by `a`.
    @inlinable @inline(__always)
    public static func * (a: Quaternion, b: Quaternion) -> Quaternion {
        Quaternion(
            w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
            x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
            y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
            z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w)
    }

    /// Rotates `v` by this unit quaternion: `q ⊗ (0, v) ⊗ q*`.
    @inlinable @inline(__always)
    public func rotate(_ v: Vector3) -> Vector3 {
        // t = 2 (q.xyz × v); v' = v + w t + q.xyz × t
        let u = vector
        let t = u.cross(v) * 2
        return v + t * w + u.cross(t)
    }

    /// Rotates `v` by the inverse of this unit quaternion (earth → device for an attitude).
    @inlinable @inline(__always)
    public func inverseRotate(_ v: Vector3) -> Vector3 { conjugate.rotate(v) }

    /// The rotation angle in radians, in `[0, π]`.
    public var angle: Double {
        let c = canonical
        return 2 * atan2(c.vector.norm, c.w)
    }

    /// The rotation vector (axis × angle, the logarithm map), with angle in `[0, π]`.
    public var rotationVector: Vector3 {
        let c = canonical
        let s = c.vector.norm
        if s < 1e-12 { return c.vector * 2 }
        let angle = 2 * atan2(s, c.w)
        return c.vector * (angle / s)
    }

    /// Intrinsic Z-Y-X Euler angles (yaw about z, then pitch about y, then roll about x), radians.
    public var euler: EulerAngles {
        let sinp = max(-1, min(1, 2 * (w * y - z * x)))
        return EulerAngles(
            roll: atan2(2 * (w * x + y * z), 1 - 2 * (x * x + y * y)),
            pitch: asin(sinp),
            yaw: atan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z)))
    }

    /// The quaternion with these intrinsic Z-Y-X Euler angles.
    public init(euler e: EulerAngles) {
        let qz = Quaternion(axis: .unitZ, angle: e.yaw)
        let qy = Quaternion(axis: .unitY, angle: e.pitch)
        let qx = Quaternion(axis: .unitX, angle: e.roll)
        self = qz * qy * qx
    }

    /// The shortest rotation taking unit direction `from` to unit direction `to`.
    public init(from: Vector3, to: Vector3) {
        guard let a = from.normalized, let b = to.normalized else {
            self = .identity
            return
        }
        let d = a.dot(b)
        if d < -1 + 1e-12 {
            // Opposite: any axis perpendicular to `a` will do.
            let axis = abs(a.x) < 0.9 ? a.cross(.unitX) : a.cross(.unitY)
            self.init(axis: axis, angle: .pi)
            return
        }
        let c = a.cross(b)
        self = Quaternion(w: 1 + d, x: c.x, y: c.y, z: c.z).normalized
    }

    /// The angle in radians between two attitudes, in `[0, π]`.
    public func angle(to other: Quaternion) -> Double { (other * conjugate).angle }

    public var description: String { "[\(w), \(x), \(y), \(z)]" }
}

/// Intrinsic Z-Y-X Euler angles in radians.
public struct EulerAngles: Hashable, Sendable {
    public var roll, pitch, yaw: Double

    public init(roll: Double, pitch: Double, yaw: Double) {
        self.roll = roll
        self.pitch = pitch
        self.yaw = yaw
    }
}
