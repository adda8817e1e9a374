import FoundationEssentials

/// The lines of a tilt config file (`tiltd.conf`, `tiltfx wallpaper --config`): `key = value` pairs, `#` comments and
/// optional `[section]` headers.
///
/// Values may be quoted with `"…"` (with `\"` and `\\` escapes), which keeps `#` and surrounding spaces; an unquoted
/// value ends at a `#` that follows a space. Each entry knows the section it is in (``Entry/section``). In `tiltd.conf`
/// sections only organise the file for people: keys are the same in any section, and a key given twice anywhere is
/// an error. A file whose sections mean something (the wallpaper's `[output NAME]`) is parsed with
/// `keysPerSection`: a key may then come once in each section. Either way a file never silently means two things.
public struct ConfigFile: Sendable, Equatable {
    /// One `key = value` line.
    public struct Entry: Sendable, Equatable {
        public var key: String
        public var value: String
        /// 1-based line number.
        public var line: Int
        /// The `[section]` the entry is under, as written between the brackets (trimmed); `nil` before the first.
        public var section: String?

        /// An entry.
        public init(key: String, value: String, line: Int, section: String? = nil) {
            self.key = key
            self.value = value
            self.line = line
            self.section = section
        }
    }

    /// The file's path, for messages.
    public var path: String
    /// The entries in file order.
    public var entries: [Entry]

    /// Reads and parses the file at `path`.
    ///
    /// - Throws: ``ConfigError`` when it cannot be read or a line is malformed.
    /// - Parameter keysPerSection: a key may be given once in each section (else once in the file).
    public static func read(path: String, keysPerSection: Bool = false) throws(ConfigError) -> ConfigFile {
        let (file, problems) = try readAll(path: path, keysPerSection: keysPerSection)
        if let first = problems.first { throw first }
        return file
    }

    /// Reads the file at `path`, skipping bad lines: the good entries and a problem for each bad line.
    ///
    /// - Throws: ``ConfigError`` only when the file cannot be read.
    public static func readAll(
        path: String, keysPerSection: Bool = false
    ) throws(ConfigError) -> (file: ConfigFile, problems: [ConfigError]) {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            let reason = errorReason(error)
            throw ConfigError(
                .unreadable, path: path, line: nil, key: nil, reason: "cannot read the config file (\(reason))")
        }
        return parseAll(text, path: path, keysPerSection: keysPerSection)
    }

    /// Parses `text`; `path` only names it in errors.
    ///
    /// - Throws: ``ConfigError`` naming the line of the first malformed line or repeated key.
    public static func parse(
        _ text: String, path: String, keysPerSection: Bool = false
    ) throws(ConfigError) -> ConfigFile {
        let (file, problems) = parseAll(text, path: path, keysPerSection: keysPerSection)
        if let first = problems.first { throw first }
        return file
    }

    /// Parses `text`, skipping bad lines: the good entries and a problem for each bad line, in file order (what
    /// `tiltd --check` reports in one run).
    public static func parseAll(
        _ text: String, path: String, keysPerSection: Bool = false
    ) -> (file: ConfigFile, problems: [ConfigError]) {
        var entries: [Entry] = []
        var problems: [ConfigError] = []
        var seen: [String: Int] = [:]
        var section: String?
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            do throws(ConfigError) {
                guard let line = try entry(raw, line: index + 1, path: path) else { continue }
                guard case .entry(let entry) = line else {
                    if case .section(let name) = line { section = name }
                    continue
                }
                let scope = keysPerSection ? "[\(section ?? "")]\(entry.key)" : entry.key
                if let first = seen[scope] {
                    throw ConfigError(
                        .repeatedKey, path: path, line: entry.line, key: entry.written,
                        reason: "given twice (first on line \(first)); keep one")
                }
                seen[scope] = entry.line
                entries.append(Entry(key: entry.key, value: entry.value, line: entry.line, section: section))
            } catch {
                problems.append(error)
            }
        }
        return (ConfigFile(path: path, entries: entries), problems)
    }

    /// What one line holds.
    private enum Line {
        /// `key = value` (`written`: the key as the file spells it).
        case entry((key: String, written: String, value: String, line: Int))
        /// `[name]`.
        case section(String)
    }

    /// The entry or section header on one line, or `nil` for a blank or comment line.
    private static func entry(_ raw: Substring, line number: Int, path: String) throws(ConfigError) -> Line? {
        let line = raw.trimmingWhitespace
        if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { return nil }
        if line.hasPrefix("[") {
            let name = stripComment(line)
            guard name.hasSuffix("]"), name.count > 2 else {
                throw ConfigError(
                    .syntax, path: path, line: number, key: nil,
                    reason: "a section header looks like [name], got '\(line.prefix(80))'")
            }
            return .section(name.dropFirst().dropLast().trimmingWhitespace)
        }
        guard let equals = line.firstIndex(of: "=") else {
            throw ConfigError(
                .syntax, path: path, line: number, key: nil,
                reason: "expected 'key = value', got '\(line.prefix(80))'")
        }
        let key = line[..<equals].trimmingWhitespace
        guard !key.isEmpty, key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) else {
            throw ConfigError(
                .syntax, path: path, line: number, key: nil,
                reason: "expected 'key = value' with a key of letters, digits and '_', got '\(line.prefix(80))'")
        }
        let rest = line[line.index(after: equals)...].trimmingWhitespace
        let value: String
        do {
            value = try parseValue(rest)
        } catch let reason {
            throw ConfigError(.syntax, path: path, line: number, key: key, reason: reason.text)
        }
        let normalized = key.replacing("-", with: "_").lowercased()
        return .entry((normalized, key, value, number))
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
                return text[..<index].trimmingWhitespace
            }
            previous = text[index]
        }
        return text.trimmingWhitespace
    }
}
