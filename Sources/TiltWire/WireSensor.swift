import TiltCore

/// A sensor as described on the wire.
public struct WireSensor: Sendable, Equatable, Codable {
    public var name: String
    public var kinds: [String]
    public var location: String
    public var rate: Double?
    public var mode: String

    func write(into w: inout JSONWriter) {
        w.field("name", name)
        w.field("kinds", strings: kinds)
        w.field("location", location)
        if let rate { w.field("rate", rate) } else { w.null("rate") }
        w.field("mode", mode)
    }
}

extension WireSensor {
    public init(_ d: SensorDescription) {
        self.init(name: d.name, kinds: d.kinds.map(\.rawValue), location: d.location, rate: d.rateHz, mode: d.mode)
    }
}
