import Foundation
import TiltCore

/// The property tests' generator: TiltCore's SeededRandom (SplitMix64), so that a failing case reproduces.
///
/// Property tests name the seed and case of a failing case; `TILT_SEED` replays them with another seed.
public typealias SeededGenerator = SeededRandom

extension SeededRandom {
    /// The seed from `$TILT_SEED`, else `fallback`.
    public static func seed(default fallback: UInt64) -> UInt64 {
        if let text = ProcessInfo.processInfo.environment["TILT_SEED"], let seed = UInt64(text) { return seed }
        return fallback
    }

    /// A uniformly random unit quaternion (Shoemake's method), either sign.
    public mutating func unitQuaternion() -> Quaternion {
        let u1 = Double.random(in: 0..<1, using: &self)
        let u2 = Double.random(in: 0..<(2 * Double.pi), using: &self)
        let u3 = Double.random(in: 0..<(2 * Double.pi), using: &self)
        let a = (1 - u1).squareRoot()
        let b = u1.squareRoot()
        return Quaternion(w: a * cos(u2), x: a * sin(u2), y: b * sin(u3), z: b * cos(u3))
    }

    /// A vector with components uniform in `-scale...scale`.
    public mutating func vector(scale: Double = 1) -> Vector3 {
        Vector3(
            Double.random(in: -scale...scale, using: &self), Double.random(in: -scale...scale, using: &self),
            Double.random(in: -scale...scale, using: &self))
    }

    /// A unit vector, uniform on the sphere.
    public mutating func direction() -> Vector3 {
        while true {
            let v = vector()
            if v.norm <= 1, let n = v.normalized { return n }
        }
    }
}
