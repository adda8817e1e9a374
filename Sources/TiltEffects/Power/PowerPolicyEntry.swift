import TiltCore

/// A preset's `power` key as written: one mode for every situation (`"power": "still"`), or a mode per situation
/// (`"power": {"mains": "full", "battery": "full", "lowPower": "capped", "lowBatteryPercent": 15}`), missing
/// fields keeping the automatic policy's choice.
enum PowerPolicyEntry: Decodable {
    /// `"power": "still"`: this mode everywhere.
    case fixed(String)
    /// `"power": {…}`: a mode per situation.
    case perSituation(Situations)

    /// The object form's fields, each optional.
    struct Situations: Decodable {
        var mains, battery, lowPower: String?
        var lowBatteryPercent: Int?

        /// The keys the object form may hold.
        enum CodingKeys: String, CodingKey, CaseIterable {
            case mains, battery, lowPower, lowBatteryPercent
        }
    }

    init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer().decode(String.self) {
            self = .fixed(single)
        } else {
            self = .perSituation(try Situations(from: decoder))
        }
    }

    /// The policy, or a `PresetError` naming the field at fault.
    func resolve(file: String) throws(PresetError) -> PowerPolicy {
        func parse(_ text: String, field: String) throws(PresetError) -> PowerMode {
            guard let mode = PowerMode(rawValue: text), mode != .hidden else {
                throw .invalid(file, field: field, reason: "'\(text)' is not one of full, capped, still")
            }
            return mode
        }
        let fields: Situations
        switch self {
        case .fixed(let text): return .fixed(try parse(text, field: "power"))
        case .perSituation(let situations): fields = situations
        }
        var policy = PowerPolicy.automatic
        if let text = fields.mains { policy.mains = try parse(text, field: "power.mains") }
        if let text = fields.battery { policy.battery = try parse(text, field: "power.battery") }
        if let text = fields.lowPower { policy.lowPower = try parse(text, field: "power.lowPower") }
        if let percent = fields.lowBatteryPercent {
            guard (0...100).contains(percent) else {
                throw .invalid(file, field: "power.lowBatteryPercent", reason: "give a percentage from 0 to 100")
            }
            policy.lowBatteryPercent = percent
        }
        return policy
    }
}
