#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension Quaternion {
    /// Spherical linear interpolation between two unit quaternions, the short way round.
    ///
    /// The result turns from `self` (at `t` = 0) to `other` (at `t` = 1) about one fixed axis at a constant angular
    /// speed. `other` is negated first when that is the shorter path (q and −q are the same rotation). Nearly equal
    /// inputs fall back to normalised linear interpolation, which is exact to double precision there.
    ///
    /// - Parameters:
    ///   - other: The rotation at `t` = 1.
    ///   - t: The fraction of the way, usually in `[0, 1]`.
    /// - Returns: A unit quaternion.
    public func slerp(to other: Quaternion, t: Double) -> Quaternion {
        var b = other
        var d = w * b.w + x * b.x + y * b.y + z * b.z
        if d < 0 {
            b = Quaternion(w: -b.w, x: -b.x, y: -b.y, z: -b.z)
            d = -d
        }
        if d > 1 - 1e-12 {
            return Quaternion(
                w: w + (b.w - w) * t, x: x + (b.x - x) * t, y: y + (b.y - y) * t, z: z + (b.z - z) * t
            ).normalized
        }
        // The half-angle between them from the relative rotation, accurate for small and large angles alike.
        let relative = conjugate * b
        let theta = atan2(relative.vector.norm, relative.w)
        let s = sin(theta)
        let ka = sin((1 - t) * theta) / s
        let kb = sin(t * theta) / s
        return Quaternion(w: w * ka + b.w * kb, x: x * ka + b.x * kb, y: y * ka + b.y * kb, z: z * ka + b.z * kb)
            .normalized
    }
}
