/// What a sample source is, as listed in `hello`, `status` and `tilt sensors`.
public struct SensorDescription: Hashable, Sendable {
    /// A stable name, e.g. `bmi160` or `replay`.
    public var name: String
    /// Kinds of data it provides.
    public var kinds: [SensorKind]
    /// Where it lives: an IIO device id (`iio:device0`), a log path, …
    public var location: String
    /// The sampling rate in Hz, if known.
    public var rateHz: Double?
    /// `buffered`, `polled` or `replay`.
    public var mode: String

    public init(name: String, kinds: [SensorKind], location: String, rateHz: Double?, mode: String) {
        self.name = name
        self.kinds = kinds
        self.location = location
        self.rateHz = rateHz
        self.mode = mode
    }
}
