#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A smooth saturation to ±`limit`: `limit · tanh(x / limit)`.
///
/// Near zero it is the identity (slope 1), it is odd and strictly increasing, and it never reaches the limit, so a
/// UI driven by it keeps moving a little as the device tilts further instead of hitting a wall.
package struct SoftClamp: Sendable, Hashable {
    /// The asymptote, in the signal's units (radians for tilt). Must be positive.
    package var limit: Double

    package init(limit: Double = 0.5) {
        self.limit = limit
    }

    @inlinable
    package func callAsFunction(_ x: Double) -> Double {
        guard limit > 0 else { return 0 }
        guard x.isFinite else { return x.isNaN ? 0 : (x > 0 ? limit : -limit) }
        return limit * tanh(x / limit)
    }
}
