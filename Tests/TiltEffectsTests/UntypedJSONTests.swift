import Foundation
import Testing

@testable import TiltEffects

/// UntypedJSON parses what JSONSerialization parsed (the programs link FoundationEssentials, which lacks it), and
/// says at which byte a text stops being JSON.
@Suite struct UntypedJSONTests {
    @Test(
        "the values are JSONSerialization's",
        arguments: [
            #"{"a": [1, 2.5, -3e2, true, false, null, "x\"\\\/\u00e9\ud83d\ude00\n"], "b": {}, "c": []}"#,
            #"  "fragment"  "#, "42", "-0.5", #"[{"nested": [[[]]]}]"#, "\u{FEFF}{\"bom\": 1}",
        ])
    func sameValues(_ text: String) throws {
        let data = Data(text.utf8)
        let ours = try UntypedJSON.parse(data)
        let theirs = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        #expect(Self.canonical(ours) == Self.canonical(theirs))
    }

    @Test(
        "a syntax error names the byte where the text stops being JSON, or none when it ends early",
        arguments: [
            (#"{ "kind": "color" "function": 1 }"#, 18), ("[1, 2,]", 6), (#"{"a" 1}"#, 5), ("tru", nil), ("[1, 2", nil),
            ("{\n  \"effects\": [\n", nil), ("[1] x", 4), (#"["\q"]"#, 2), ("01", 1),
        ])
    func syntaxErrors(_ text: String, _ offset: Int?) {
        #expect(throws: UntypedJSON.SyntaxError.self) { try UntypedJSON.parse(Data(text.utf8)) }
        do {
            _ = try UntypedJSON.parse(Data(text.utf8))
        } catch {
            #expect(error.offset == offset, "\(error)")
        }
    }

    /// A value as comparable text: objects with sorted keys, numbers and booleans as Double, null as "null".
    static func canonical(_ value: Any) -> String {
        switch value {
        case let object as [String: Any]:
            return "{" + object.keys.sorted().map { "\($0):\(canonical(object[$0]!))" }.joined(separator: ",") + "}"
        case let array as [Any]: return "[" + array.map(canonical).joined(separator: ",") + "]"
        case let string as String: return "s:" + string
        case is NSNull, is UntypedJSON.Null: return "null"
        case let number as NSNumber: return "n:\(number.doubleValue)"
        case let bool as Bool: return "n:\(bool ? 1.0 : 0.0)"
        case let int as Int: return "n:\(Double(int))"
        case let double as Double: return "n:\(double)"
        default: return "?\(value)"
        }
    }
}
