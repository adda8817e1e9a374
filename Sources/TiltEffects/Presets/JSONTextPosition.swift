import FoundationEssentials
import TiltCore

/// A place in a JSON text, as an editor shows it: line and column, both from 1.
///
/// `JSONDecoder` reports a syntax error without saying where it is; ``UntypedJSON`` says at which byte (none when the
/// text ends early). This turns that offset into the line and column a person can jump to.
struct JSONTextPosition: Sendable, Hashable, CustomStringConvertible {
    /// The line, from 1.
    let line: Int
    /// The column, from 1, counted in characters (a multi-byte UTF-8 character is one column).
    let column: Int

    /// The position of byte `offset` of `data` (the end of the text when `offset` is past it).
    init(offset: Int, in data: Data) {
        let bytes = data.prefix(max(0, offset))
        let lineStart = (bytes.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 }) ?? bytes.startIndex
        line = bytes.count { $0 == UInt8(ascii: "\n") } + 1
        // Continuation bytes (10xxxxxx) belong to the character before them.
        column = bytes[lineStart...].count { $0 & 0xC0 != 0x80 } + 1
    }

    var description: String { "\(line):\(column)" }

    /// Where `data` stops being valid JSON and what is wrong there, from the `error` ``UntypedJSON`` threw parsing
    /// it (the end of the text when the error says no place).
    static func syntaxError(_ error: UntypedJSON.SyntaxError, in data: Data) -> (
        position: JSONTextPosition, reason: String
    ) {
        (JSONTextPosition(offset: error.offset ?? data.count, in: data), error.reason)
    }
}
