import FoundationEssentials

/// JSON parsed without a type, as `JSONSerialization.jsonObject(with:options: .fragmentsAllowed)` gave it (that API
/// is not in FoundationEssentials, which is all the programs link): `[String: Any]`, `[Any]`, `String`, `Bool`,
/// `Int` (an integer that fits), `Double` (any other number), ``UntypedJSON/Null``; a syntax error says at which
/// byte the text stops being JSON, for ``JSONTextPosition``.
enum UntypedJSON {
    /// JSON's `null`.
    struct Null: Sendable, Hashable {}

    /// Where the text stops being JSON (`offset`, a byte; `nil` when the text ends early) and what is wrong there.
    struct SyntaxError: Error, Sendable, CustomStringConvertible {
        let offset: Int?
        let reason: String
        var description: String { offset.map { "\(reason) around character \($0)." } ?? "\(reason)." }
    }

    /// The value of the JSON text `data` (any value at the top, as with `.fragmentsAllowed`).
    static func parse(_ data: Data) throws(SyntaxError) -> Any {
        var parser = Parser(bytes: Array(data))
        // A byte order mark is not JSON, but JSONSerialization accepted UTF-8's.
        if parser.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.index == parser.bytes.count else { throw parser.unexpected() }
        return value
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        func unexpected() -> SyntaxError {
            guard index < bytes.count else { return SyntaxError(offset: nil, reason: "Unexpected end of file") }
            let byte = bytes[index]
            let shown = byte >= 0x20 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "byte \(byte)"
            return SyntaxError(offset: index, reason: "Unexpected character \(shown)")
        }

        mutating func value(depth: Int) throws(SyntaxError) -> Any {
            skipSpace()
            guard index < bytes.count else { throw unexpected() }
            guard depth < 512 else { throw SyntaxError(offset: index, reason: "Too many nested arrays or objects") }
            switch bytes[index] {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return try string()
            case UInt8(ascii: "t"): return try literal("true", true)
            case UInt8(ascii: "f"): return try literal("false", false)
            case UInt8(ascii: "n"): return try literal("null", Null())
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
            default: throw unexpected()
            }
        }

        mutating func literal(_ word: String, _ value: Any) throws(SyntaxError) -> Any {
            for expected in word.utf8 {
                guard index < bytes.count, bytes[index] == expected else { throw unexpected() }
                index += 1
            }
            return value
        }

        mutating func object(depth: Int) throws(SyntaxError) -> Any {
            index += 1
            var result: [String: Any] = [:]
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return result
            }
            while true {
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw unexpected() }
                let key = try string()
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw unexpected() }
                index += 1
                result[key] = try value(depth: depth + 1)
                skipSpace()
                guard index < bytes.count else { throw unexpected() }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                } else if bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return result
                } else {
                    throw unexpected()
                }
            }
        }

        mutating func array(depth: Int) throws(SyntaxError) -> Any {
            index += 1
            var result: [Any] = []
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return result
            }
            while true {
                result.append(try value(depth: depth + 1))
                skipSpace()
                guard index < bytes.count else { throw unexpected() }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                } else if bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return result
                } else {
                    throw unexpected()
                }
            }
        }

        mutating func string() throws(SyntaxError) -> String {
            index += 1
            var scalars = String.UnicodeScalarView()
            var run = index
            var text = ""
            func flush(_ end: Int) { text += String(decoding: bytes[run..<end], as: UTF8.self) }
            while true {
                guard index < bytes.count else { throw unexpected() }
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    flush(index)
                    index += 1
                    return text
                }
                if byte < 0x20 { throw SyntaxError(offset: index, reason: "Unescaped control character in a string") }
                guard byte == UInt8(ascii: "\\") else {
                    index += 1
                    continue
                }
                flush(index)
                index += 1
                guard index < bytes.count else { throw unexpected() }
                let escape = bytes[index]
                index += 1
                scalars.removeAll()
                switch escape {
                case UInt8(ascii: "\""): text += "\""
                case UInt8(ascii: "\\"): text += "\\"
                case UInt8(ascii: "/"): text += "/"
                case UInt8(ascii: "b"): text += "\u{08}"
                case UInt8(ascii: "f"): text += "\u{0C}"
                case UInt8(ascii: "n"): text += "\n"
                case UInt8(ascii: "r"): text += "\r"
                case UInt8(ascii: "t"): text += "\t"
                case UInt8(ascii: "u"):
                    var unit = try hex4()
                    if (0xD800..<0xDC00).contains(unit), index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                        bytes[index + 1] == UInt8(ascii: "u")
                    {
                        index += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else {
                            throw SyntaxError(offset: index - 6, reason: "Invalid surrogate pair")
                        }
                        unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(unit) else {
                        throw SyntaxError(offset: index - 6, reason: "Invalid unicode scalar")
                    }
                    text.unicodeScalars.append(scalar)
                default:
                    throw SyntaxError(offset: index - 2, reason: "Invalid escape sequence")
                }
                run = index
            }
        }

        mutating func hex4() throws(SyntaxError) -> UInt32 {
            var unit: UInt32 = 0
            for _ in 0..<4 {
                guard index < bytes.count, let digit = Character(Unicode.Scalar(bytes[index])).hexDigitValue else {
                    throw unexpected()
                }
                unit = unit * 16 + UInt32(digit)
                index += 1
            }
            return unit
        }

        mutating func number() throws(SyntaxError) -> Any {
            let start = index
            var integral = true
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            func digits(_ parser: inout Parser) -> Int {
                let from = parser.index
                while parser.index < parser.bytes.count,
                    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(parser.bytes[parser.index])
                {
                    parser.index += 1
                }
                return parser.index - from
            }
            let first = index
            guard digits(&self) > 0 else { throw unexpected() }
            if bytes[first] == UInt8(ascii: "0"), index - first > 1 {
                throw SyntaxError(offset: first + 1, reason: "Number with leading zero")
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                integral = false
                index += 1
                guard digits(&self) > 0 else { throw unexpected() }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                integral = false
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                    index += 1
                }
                guard digits(&self) > 0 else { throw unexpected() }
            }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            if integral, let int = Int(text) { return int }
            guard let double = Double(text) else { throw SyntaxError(offset: start, reason: "Invalid number") }
            return double
        }
    }
}
