/// A three-component vector of `Double`, used for every physical quantity tilt carries.
///
/// Units depend on the field: m/s² for acceleration, rad/s for angular rate, µT for the magnetic field.
/// Device-frame vectors follow the IIO/Android convention: x to the right of the screen, y to its top,
/// z out of the screen.
public struct Vector3: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public var z: Double

    @inlinable
    public init(_ x: Double, _ y: Double, _ z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    public static let zero = Vector3(0, 0, 0)
    public static let unitX = Vector3(1, 0, 0)
    public static let unitY = Vector3(0, 1, 0)
    public static let unitZ = Vector3(0, 0, 1)

    /// The components as an array `[x, y, z]`.
    public var array: [Double] { [x, y, z] }

    @inlinable public var squaredNorm: Double { x * x + y * y + z * z }
    @inlinable public var norm: Double { squaredNorm.squareRoot() }

    /// The vector scaled to unit length, or `nil` when its length is zero or not finite.
    @inlinable
    public var normalized: Vector3? {
        let n = norm
        guard n > 0, n.isFinite else { return nil }
        return self / n
    }

    /// Whether every component is finite (neither NaN nor infinite).
    @inlinable public var isFinite: Bool { x.isFinite && y.isFinite && z.isFinite }

    @inlinable public func dot(_ o: Vector3) -> Double { x * o.x + y * o.y + z * o.z }

    @inlinable
    public func cross(_ o: Vector3) -> Vector3 {
        Vector3(y * o.z - z * o.y, z * o.x - x * o.z, x * o.y - y * o.x)
    }

    @inlinable public static func + (a: Vector3, b: Vector3) -> Vector3 { Vector3(a.x + b.x, a.y + b.y, a.z + b.z) }
    @inlinable public static func - (a: Vector3, b: Vector3) -> Vector3 { Vector3(a.x - b.x, a.y - b.y, a.z - b.z) }
    @inlinable public static prefix func - (a: Vector3) -> Vector3 { Vector3(-a.x, -a.y, -a.z) }
    @inlinable public static func * (a: Vector3, s: Double) -> Vector3 { Vector3(a.x * s, a.y * s, a.z * s) }
    @inlinable public static func * (s: Double, a: Vector3) -> Vector3 { Vector3(a.x * s, a.y * s, a.z * s) }
    @inlinable public static func / (a: Vector3, s: Double) -> Vector3 { Vector3(a.x / s, a.y / s, a.z / s) }
    @inlinable public static func += (a: inout Vector3, b: Vector3) { a = a + b }
    @inlinable public static func -= (a: inout Vector3, b: Vector3) { a = a - b }
    @inlinable public static func *= (a: inout Vector3, s: Double) { a = a * s }

    public var description: String { "(\(x), \(y), \(z))" }
}
