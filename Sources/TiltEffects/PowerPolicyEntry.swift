import TiltCore

/// A preset's `power` key as written: one mode for every situation (`"power": "still"`), or a mode per situation
/// (`"power": {"mains": "full", "battery": "full", "lowPower": "capped", "lowBatteryPercent": 15}`), missing
/// fields keeping the automatic policy's choice.
struct PowerPolicyEntry: Decodable {
    var mode: String?
    var mains: String?
    var battery: String?
    var lowPower: String?
    var lowBatteryPercent: Int?

    /// The keys the object form may hold.
    enum Keys: String, CodingKey, CaseIterable {
        case mains, battery, lowPower, lowBatteryPercent
    }

    init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer().decode(String.self) {
            mode = single
            return
        }
        let c = try decoder.container(keyedBy: Keys.self)
        mains = try c.decodeIfPresent(String.self, forKey: .mains)
        battery = try c.decodeIfPresent(String.self, forKey: .battery)
        lowPower = try c.decodeIfPresent(String.self, forKey: .lowPower)
        lowBatteryPercent = try c.decodeIfPresent(Int.self, forKey: .lowBatteryPercent)
    }

    /// The policy, or a `PresetError` naming the field at fault.
    func resolve(file: String) throws(PresetError) -> PowerPolicy {
        func parse(_ text: String?, field: String) throws(PresetError) -> PowerMode? {
            guard let text else { return nil }
            guard let mode = PowerMode(rawValue: text), mode != .hidden else {
                throw .invalid(file, field: field, reason: "'\(text)' is not one of full, capped, still")
            }
            return mode
        }
        if let single = try parse(mode, field: "power") { return .fixed(single) }
        var policy = PowerPolicy.automatic
        if let m = try parse(mains, field: "power.mains") { policy.mains = m }
        if let m = try parse(battery, field: "power.battery") { policy.battery = m }
        if let m = try parse(lowPower, field: "power.lowPower") { policy.lowPower = m }
        if let p = lowBatteryPercent {
            guard (0...100).contains(p) else {
                throw .invalid(file, field: "power.lowBatteryPercent", reason: "give a percentage from 0 to 100")
            }
            policy.lowBatteryPercent = p
        }
        return policy
    }
}
