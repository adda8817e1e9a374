/// A key of `preset.json` that the format does not have, found before decoding: a misspelt optional key
/// (`argumnets`) is then an error naming it, where the decoder would skip it and leave the setting at its default.
struct PresetKeys: Sendable, Equatable {
    /// The object holding the keys: `effects[0].arguments[1]`, `power`, or `(top level)`.
    let field: String
    /// The keys that are not known there, sorted.
    let unknown: [String]
    /// The keys that are, in the order the format lists them.
    let known: [String]

    /// What is wrong, and what the keys may be.
    var reason: String {
        let names = unknown.map { "'\($0)'" }.joined(separator: ", ")
        return "unknown key\(unknown.count == 1 ? "" : "s") \(names) (known: \(known.joined(separator: ", "))); "
            + "fix the spelling or remove it"
    }

    /// The first object of `json` (as ``UntypedJSON`` parsed it) that holds a key its type's `CodingKeys` do
    /// not list, or `nil`. Values of the wrong type are left to the decoder, which names them.
    static func firstUnknown(in json: Any) -> PresetKeys? {
        guard let top = json as? [String: Any] else { return nil }
        if let found = check(top, PresetFile.CodingKeys.self, field: "(top level)") { return found }
        for (i, effect) in objects(top["effects"]).enumerated() {
            let field = "effects[\(i)]"
            if let found = check(effect, PresetFile.EffectEntry.CodingKeys.self, field: field) { return found }
            for (j, argument) in objects(effect["arguments"]).enumerated() {
                let place = "\(field).arguments[\(j)]"
                if let found = check(argument, PresetFile.Argument.CodingKeys.self, field: place) { return found }
            }
            if let blur = effect["blur"] as? [String: Any],
                let found = check(blur, PresetFile.BlurEntry.CodingKeys.self, field: "\(field).blur")
            {
                return found
            }
        }
        for (name, texture) in ((top["textures"] as? [String: Any]) ?? [:]).sorted(by: { $0.key < $1.key }) {
            guard let texture = texture as? [String: Any] else { continue }
            if let found = check(texture, PresetFile.TextureEntry.CodingKeys.self, field: "textures.\(name)") {
                return found
            }
        }
        if let found = shadertoyUnknown(top["shadertoy"]) { return found }
        if let simulation = top["simulation"] as? [String: Any],
            let found = check(simulation, PresetFile.SimulationEntry.CodingKeys.self, field: "simulation")
        {
            return found
        }
        guard let power = top["power"] as? [String: Any] else { return nil }
        return check(power, PowerPolicyEntry.Situations.CodingKeys.self, field: "power")
    }

    /// The objects of an array value (an element of another type keeps its place, so indices match the file).
    static func objects(_ value: Any?) -> [[String: Any]] {
        ((value as? [Any]) ?? []).map { $0 as? [String: Any] ?? [:] }
    }

    static func check<Keys: CodingKey & CaseIterable>(
        _ object: [String: Any], _: Keys.Type, field: String
    ) -> PresetKeys? {
        let known = Keys.allCases.map(\.stringValue)
        let unknown = object.keys.filter { !known.contains($0) }.sorted()
        return unknown.isEmpty ? nil : PresetKeys(field: field, unknown: unknown, known: known)
    }
}
