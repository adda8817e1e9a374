/// The keys an object of `preset.json` may hold: anything else is refused, so that a typo (`argumnets`) is an error
/// that names it instead of a setting silently left at its default.
struct PresetKeys: Error, Sendable {
    /// Where the object lies, as the decoder's coding path.
    let path: [AnyKey]
    /// The keys that are not known there.
    let unknown: [String]
    /// The keys that are.
    let known: [String]

    /// Throws ``PresetKeys`` when the object `decoder` reads holds a key that `Keys` does not list.
    static func check<Keys: CodingKey & CaseIterable>(_ decoder: any Decoder, allowing _: Keys.Type) throws {
        let present = try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue)
        let known = Keys.allCases.map(\.stringValue)
        let unknown = present.filter { !known.contains($0) }.sorted()
        guard !unknown.isEmpty else { return }
        throw PresetKeys(
            path: decoder.codingPath.map { AnyKey(stringValue: $0.stringValue, intValue: $0.intValue) },
            unknown: unknown, known: known)
    }

    /// The object's place as a field name: `effects[0].arguments[1]`, or `(top level)`.
    var field: String {
        let text = path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        return text.isEmpty ? "(top level)" : String(text.drop { $0 == "." })
    }

    /// What is wrong, and what the keys may be.
    var reason: String {
        let names = unknown.map { "'\($0)'" }.joined(separator: ", ")
        return "unknown key\(unknown.count == 1 ? "" : "s") \(names) (known: \(known.joined(separator: ", "))); "
            + "fix the spelling or remove it"
    }

    /// Any key: what the object actually holds.
    struct AnyKey: CodingKey, Sendable {
        let stringValue: String
        let intValue: Int?

        init(stringValue: String) {
            self.stringValue = stringValue
            intValue = nil
        }

        init(stringValue: String, intValue: Int?) {
            self.stringValue = stringValue
            self.intValue = intValue
        }

        init(intValue: Int) {
            stringValue = "\(intValue)"
            self.intValue = intValue
        }
    }
}
