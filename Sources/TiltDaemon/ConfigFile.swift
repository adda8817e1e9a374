import Foundation

/// The lines of a `tiltd` config file: `key = value` pairs, `#` comments and optional `[section]` headers.
///
/// Values may be quoted with `"…"` (with `\"` and `\\` escapes), which keeps `#` and surrounding spaces; an unquoted
/// value ends at a `#` that follows a space. Sections only organise the file for people: keys are the same in any
/// section. A key given twice is an error, so a file never silently means two things.
public struct ConfigFile: Sendable, Equatable {
    /// One `key = value` line.
    public struct Entry: Sendable, Equatable {
        public var key: String
        public var value: String
        /// 1-based line number.
        public var line: Int
    }

    /// The file's path, for messages.
    public var path: String
    /// The entries in file order.
    public var entries: [Entry]

    /// Reads and parses the file at `path`.
    ///
    /// - Throws: ``ConfigError`` when it cannot be read or a line is malformed.
    public static func read(path: String) throws(ConfigError) -> ConfigFile {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            let reason = (error as NSError).localizedFailureReason ?? "\(error.localizedDescription)"
            throw ConfigError(path: path, line: nil, key: nil, reason: "cannot read the config file (\(reason))")
        }
        return try parse(text, path: path)
    }

    /// Parses `text`; `path` only names it in errors.
    ///
    /// - Throws: ``ConfigError`` naming the line of the first malformed line or repeated key.
    public static func parse(_ text: String, path: String) throws(ConfigError) -> ConfigFile {
        var entries: [Entry] = []
        var seen: [String: Int] = [:]
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            let line = raw.trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: "\r")))
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") {
                let name = stripComment(line)
                guard name.hasSuffix("]"), name.count > 2 else {
                    throw ConfigError(
                        path: path, line: number, key: nil,
                        reason: "a section header looks like [name], got '\(line.prefix(80))'")
                }
                continue
            }
            guard let equals = line.firstIndex(of: "=") else {
                throw ConfigError(
                    path: path, line: number, key: nil,
                    reason: "expected 'key = value', got '\(line.prefix(80))'")
            }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            guard !key.isEmpty, key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) else {
                throw ConfigError(
                    path: path, line: number, key: nil,
                    reason: "expected 'key = value' with a key of letters, digits and '_', got '\(line.prefix(80))'")
            }
            let rest = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            let value: String
            do {
                value = try parseValue(rest)
            } catch let reason {
                throw ConfigError(path: path, line: number, key: key, reason: reason.text)
            }
            let normalized = key.replacingOccurrences(of: "-", with: "_").lowercased()
            if let first = seen[normalized] {
                throw ConfigError(
                    path: path, line: number, key: key,
                    reason: "given twice (first on line \(first)); keep one")
            }
            seen[normalized] = number
            entries.append(Entry(key: normalized, value: value, line: number))
        }
        return ConfigFile(path: path, entries: entries)
    }

    /// A value problem, before the line is known.
    private struct ValueProblem: Error {
        var text: String
    }

    private static func parseValue(_ rest: String) throws(ValueProblem) -> String {
        guard rest.hasPrefix("\"") else { return stripComment(rest) }
        var result = ""
        var escaped = false
        var closed: String.Index?
        var index = rest.index(after: rest.startIndex)
        while index < rest.endIndex {
            let c = rest[index]
            if escaped {
                result.append(c == "n" ? "\n" : c == "t" ? "\t" : c)
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else if c == "\"" {
                closed = index
                break
            } else {
                result.append(c)
            }
            index = rest.index(after: index)
        }
        guard let closed else { throw ValueProblem(text: "the quoted value has no closing '\"'") }
        let after = stripComment(String(rest[rest.index(after: closed)...]))
        guard after.isEmpty else {
            throw ValueProblem(text: "unexpected '\(after.prefix(40))' after the quoted value; put comments after '#'")
        }
        return result
    }

    /// `text` without a trailing `# comment` (a `#` at the start or after a space), trimmed.
    private static func stripComment(_ text: String) -> String {
        var previous: Character = " "
        for index in text.indices {
            if text[index] == "#", previous == " " || previous == "\t" {
                return text[..<index].trimmingCharacters(in: .whitespaces)
            }
            previous = text[index]
        }
        return text.trimmingCharacters(in: .whitespaces)
    }
}
