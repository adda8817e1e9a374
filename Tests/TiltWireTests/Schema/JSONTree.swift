/// A parsed JSON value that keeps what the protocol's schema needs and `JSONSerialization` loses: the order of an
/// object's keys (the wire order) and whether a number was written as an integer (`3`) or not (`3.0`, `1e-7`).
indirect enum JSONTree: Equatable {
    case null
    case bool(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    case array([JSONTree])
    case object([(key: String, value: JSONTree)])

    static func == (a: JSONTree, b: JSONTree) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case (.bool(let x), .bool(let y)): x == y
        case (.integer(let x), .integer(let y)): x == y
        case (.number(let x), .number(let y)): x == y
        case (.string(let x), .string(let y)): x == y
        case (.array(let x), .array(let y)): x == y
        case (.object(let x), .object(let y)): x.map(\.key) == y.map(\.key) && x.map(\.value) == y.map(\.value)
        default: false
        }
    }

    /// The value of `key` in an object.
    subscript(key: String) -> JSONTree? {
        guard case .object(let fields) = self else { return nil }
        return fields.first { $0.key == key }?.value
    }

    /// Parses one JSON text.
    static func parse(_ text: String) throws -> JSONTree {
        var parser = Parser(bytes: Array(text.utf8))
        let value = try parser.value()
        parser.skipSpace()
        guard parser.at == parser.bytes.count else { throw parser.failure("text after the value") }
        return value
    }

    /// Pretty JSON text: two spaces per level, one key per line, arrays of plain values on one line.
    func pretty(indent: String = "") -> String {
        let inner = indent + "  "
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .integer(let i): return String(i)
        case .number(let d): return d.description
        case .string(let s): return Self.quoted(s)
        case .array(let items):
            if items.allSatisfy({ if case .object = $0 { false } else { true } }) {
                return "[" + items.map { $0.pretty() }.joined(separator: ", ") + "]"
            }
            return "[\n" + items.map { inner + $0.pretty(indent: inner) }.joined(separator: ",\n") + "\n\(indent)]"
        case .object(let fields):
            if fields.isEmpty { return "{}" }
            return "{\n"
                + fields.map { inner + Self.quoted($0.key) + ": " + $0.value.pretty(indent: inner) }
                .joined(separator: ",\n") + "\n\(indent)}"
        }
    }

    static func quoted(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(u)
            }
        }
        return out + "\""
    }

    private struct Parser {
        let bytes: [UInt8]
        var at = 0

        struct Failure: Error, CustomStringConvertible {
            var description: String
        }

        func failure(_ what: String) -> Failure { Failure(description: "JSON: \(what) at byte \(at)") }

        mutating func skipSpace() {
            while at < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[at]) { at += 1 }
        }

        mutating func literal(_ word: String, _ value: JSONTree) throws -> JSONTree {
            let w = Array(word.utf8)
            guard at + w.count <= bytes.count, Array(bytes[at..<at + w.count]) == w else {
                throw failure("bad literal")
            }
            at += w.count
            return value
        }

        mutating func value() throws -> JSONTree {
            skipSpace()
            guard at < bytes.count else { throw failure("end of text") }
            switch bytes[at] {
            case UInt8(ascii: "n"): return try literal("null", .null)
            case UInt8(ascii: "t"): return try literal("true", .bool(true))
            case UInt8(ascii: "f"): return try literal("false", .bool(false))
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "["):
                at += 1
                var items: [JSONTree] = []
                skipSpace()
                if at < bytes.count, bytes[at] == UInt8(ascii: "]") {
                    at += 1
                    return .array(items)
                }
                while true {
                    items.append(try value())
                    skipSpace()
                    guard at < bytes.count else { throw failure("unclosed array") }
                    at += 1
                    if bytes[at - 1] == UInt8(ascii: "]") { return .array(items) }
                    guard bytes[at - 1] == UInt8(ascii: ",") else { throw failure("expected , or ]") }
                }
            case UInt8(ascii: "{"):
                at += 1
                var fields: [(key: String, value: JSONTree)] = []
                skipSpace()
                if at < bytes.count, bytes[at] == UInt8(ascii: "}") {
                    at += 1
                    return .object(fields)
                }
                while true {
                    skipSpace()
                    guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { throw failure("expected a key") }
                    let key = try string()
                    skipSpace()
                    guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { throw failure("expected :") }
                    at += 1
                    fields.append((key, try value()))
                    skipSpace()
                    guard at < bytes.count else { throw failure("unclosed object") }
                    at += 1
                    if bytes[at - 1] == UInt8(ascii: "}") { return .object(fields) }
                    guard bytes[at - 1] == UInt8(ascii: ",") else { throw failure("expected , or }") }
                }
            default: return try number()
            }
        }

        mutating func string() throws -> String {
            at += 1
            var out: [UInt8] = []
            while at < bytes.count, bytes[at] != UInt8(ascii: "\"") {
                if bytes[at] == UInt8(ascii: "\\"), at + 1 < bytes.count {
                    at += 1
                    switch bytes[at] {
                    case UInt8(ascii: "n"): out.append(0x0A)
                    case UInt8(ascii: "t"): out.append(0x09)
                    case UInt8(ascii: "r"): out.append(0x0D)
                    case UInt8(ascii: "u"):
                        guard at + 4 < bytes.count,
                            let code = UInt32(String(decoding: bytes[at + 1...at + 4], as: UTF8.self), radix: 16),
                            let scalar = Unicode.Scalar(code)
                        else { throw failure("bad \\u escape") }
                        out += Array(String(Character(scalar)).utf8)
                        at += 4
                    default: out.append(bytes[at])
                    }
                } else {
                    out.append(bytes[at])
                }
                at += 1
            }
            guard at < bytes.count else { throw failure("unclosed string") }
            at += 1
            return String(decoding: out, as: UTF8.self)
        }

        mutating func number() throws -> JSONTree {
            let start = at
            while at < bytes.count, "+-0123456789.eE".utf8.contains(bytes[at]) { at += 1 }
            let text = String(decoding: bytes[start..<at], as: UTF8.self)
            if !text.contains(where: { ".eE".contains($0) }), let i = Int(text) { return .integer(i) }
            guard let d = Double(text) else { throw failure("bad number '\(text)'") }
            return .number(d)
        }
    }
}
