import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// What the programs took from the full Foundation for text, without it: Sources import FoundationEssentials only, so
// the programs do not link Foundation and ICU's data (scripts/release-build says what that saves).

extension String {
    /// C's printf formatting of numbers (`%.1f`, `%7.2f`, `%g`, `%d`), as Foundation's `String(format:)` gives it;
    /// the arguments are numbers (a `String` is no `CVarArg` here: interpolate text instead).
    public init(printf format: String, _ arguments: any CVarArg...) {
        func text(_ buffer: [CChar]) -> String {
            String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        self = withVaList(arguments) { list in
            var buffer = [CChar](repeating: 0, count: 64)
            let needed = Int(vsnprintf(&buffer, buffer.count, format, list))
            guard needed >= buffer.count else { return text(buffer) }
            return withVaList(arguments) { again in
                buffer = [CChar](repeating: 0, count: needed + 1)
                _ = vsnprintf(&buffer, buffer.count, format, again)
                return text(buffer)
            }
        }
    }

    /// Padded on the right with spaces to `width` characters, or cut to it (Foundation's
    /// `padding(toLength:withPad: " ", startingAt: 0)`).
    public func padded(to width: Int) -> String {
        count >= width ? String(prefix(width)) : self + String(repeating: " ", count: width - count)
    }
}

extension StringProtocol {
    /// Without leading and trailing white space and line breaks (Foundation's
    /// `trimmingCharacters(in: .whitespacesAndNewlines)`). Characters, not bytes: `"\r\n"` is one character.
    public var trimmingWhitespace: String {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(self[first...last])
    }
}

/// Why an error happened, in words, for a message that names the file itself: the system's words for a file error
/// (`No such file or directory`, `Permission denied`), else the error's own description. It stands in for
/// Foundation's `localizedDescription`, which FoundationEssentials lacks.
public func errorReason(_ error: any Error) -> String {
    if let cocoa = error as? CocoaError {
        if let posix = cocoa.underlying as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
        switch cocoa.code {
        case .fileNoSuchFile, .fileReadNoSuchFile: return String(cString: strerror(ENOENT))
        case .fileReadNoPermission, .fileWriteNoPermission: return String(cString: strerror(EACCES))
        case .fileReadCorruptFile: return "the data is not in the expected format"
        case .fileReadInapplicableStringEncoding, .fileWriteInapplicableStringEncoding: return "the text is not UTF-8"
        case .fileWriteOutOfSpace: return String(cString: strerror(ENOSPC))
        case .fileWriteVolumeReadOnly: return String(cString: strerror(EROFS))
        default: return "error \(cocoa.code.rawValue)"
        }
    }
    if let posix = error as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
    return String(describing: error)
}
