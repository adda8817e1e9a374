import TiltCore

/// The power state as described on the wire.
public struct WirePower: Sendable, Equatable, Codable {
    public var onBattery: Bool
    public var capacity: Int?
    public var profile: String?
    public var lowPower: Bool

    public var state: PowerState { PowerState(onBattery: onBattery, capacity: capacity, profile: profile) }

    /// Writes the fields in the order of the `power` message and `hello` (nil as `null`).
    func write(into w: inout JSONWriter) {
        w.field("onBattery", onBattery)
        if let capacity { w.field("capacity", capacity) } else { w.null("capacity") }
        if let profile { w.field("profile", profile) } else { w.null("profile") }
        w.field("lowPower", lowPower)
    }
}

extension WirePower {
    public init(_ p: PowerState) {
        self.init(onBattery: p.onBattery, capacity: p.capacity, profile: p.profile, lowPower: p.lowPower)
    }
}
