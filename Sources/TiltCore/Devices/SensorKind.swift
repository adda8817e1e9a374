/// A kind of data a sensor provides, named as IIO names its channel types (and as `hello`, `status` and
/// `tilt sensors` show it): `accel`, `anglvel`, `magn`.
///
/// An open set: a kind this version does not know is kept as it was named.
public struct SensorKind: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.init(rawValue: value) }

    /// Acceleration (`accel`), m/s².
    public static let accelerometer = SensorKind(rawValue: "accel")
    /// Angular velocity (`anglvel`), rad/s.
    public static let gyroscope = SensorKind(rawValue: "anglvel")
    /// Magnetic field (`magn`), µT.
    public static let magnetometer = SensorKind(rawValue: "magn")

    public var description: String { rawValue }
}
