import FoundationEssentials
import TiltCore

/// Maps the GLSL source-string numbers used in `#line` directives back to files, and rewrites compiler logs so that
/// errors name the preset's own files and lines.
package struct ShaderSourceMap: Sendable, Hashable {
    /// `files[n]` is the file behind source-string number `n`; number 0 is the generated glue code.
    package var files: [String]
    /// The preset file, blamed for errors in the generated glue (e.g. an argument list that does not match).
    package var presetFile: String?
    /// For glue lines that call an effect: the line of the generated source and the effect's function name.
    package var callSites: [Int: String]

    /// Each included file's lines are numbered from `n * lineBlock + 1`, so a message that carries only a line number
    /// still names the file.
    package static let lineBlock = 100_000

    /// Creates a map.
    package init(files: [String], presetFile: String? = nil, callSites: [Int: String] = [:]) {
        self.files = files
        self.presetFile = presetFile
        self.callSites = callSites
    }

    /// One compiler message, located. Codable as `{"file","line","column","message"}` (`tiltfx serve`'s `/edit`
    /// sends it so, docs/serve.md).
    package struct Diagnostic: Codable, Sendable, Hashable, CustomStringConvertible {
        /// The file the message is about.
        package var file: String
        /// 1-based line in that file (0 when unknown).
        package var line: Int
        /// 1-based column (0 when unknown).
        package var column: Int
        /// The compiler's text.
        package var message: String

        package init(file: String, line: Int, column: Int, message: String) {
            (self.file, self.line, self.column, self.message) = (file, line, column, message)
        }

        package var description: String {
            let place = line > 0 ? (column > 0 ? "\(file):\(line):\(column)" : "\(file):\(line)") : file
            return "\(place): \(message)"
        }
    }

    /// Parses a GLSL info log (Mesa `S:L(C): error: …`, `ERROR: S:L: …`, or `S(L) : error …`) into diagnostics.
    package func diagnostics(fromLog log: String) -> [Diagnostic] {
        var result: [Diagnostic] = []
        for raw in log.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingWhitespace
            guard !line.isEmpty else { continue }
            if let d = parse(line) {
                result.append(d)
            } else {
                result.append(Diagnostic(file: files.first ?? "<shader>", line: 0, column: 0, message: line))
            }
        }
        return result
    }

    /// Rewrites a compiler log so each line names its file and line.
    package func rewrite(log: String) -> String {
        diagnostics(fromLog: log).map(\.description).joined(separator: "\n")
    }

    private func parse(_ text: String) -> Diagnostic? {
        var s = Substring(text)
        if s.hasPrefix("ERROR: ") { s = s.dropFirst(7) } else if s.hasPrefix("WARNING: ") { s = s.dropFirst(9) }
        // source number
        let digits1 = s.prefix { $0.isNumber }
        guard let reportedSource = Int(digits1) else { return nil }
        s = s.dropFirst(digits1.count)
        var lineNumber = 0
        var column = 0
        if s.first == ":" {
            s = s.dropFirst()
            let d = s.prefix { $0.isNumber }
            guard let l = Int(d) else { return nil }
            lineNumber = l
            s = s.dropFirst(d.count)
            if s.first == "(" {
                let c = s.dropFirst().prefix { $0.isNumber }
                column = Int(c) ?? 0
                s = s.dropFirst(c.count + 1)
                if s.first == ")" { s = s.dropFirst() }
            }
        } else if s.first == "(" {
            let d = s.dropFirst().prefix { $0.isNumber }
            guard let l = Int(d) else { return nil }
            lineNumber = l
            s = s.dropFirst(d.count + 1)
            if s.first == ")" { s = s.dropFirst() }
        } else {
            return nil
        }
        s = s.drop { $0 == ":" || $0 == " " }
        let message = String(s)
        var source = reportedSource
        if lineNumber > Self.lineBlock {
            source = lineNumber / Self.lineBlock
            lineNumber %= Self.lineBlock
        }
        if source == 0 {
            if let function = callSites[lineNumber], let presetFile {
                return Diagnostic(
                    file: presetFile, line: Self.line(of: function, in: presetFile), column: 0,
                    message: "in the call to '\(function)' (check its kind and arguments): \(message)")
            }
            return Diagnostic(file: "<generated glue>", line: lineNumber, column: column, message: message)
        }
        let file = source < files.count ? files[source] : "<source \(source)>"
        return Diagnostic(file: file, line: lineNumber, column: column, message: message)
    }

    /// The line of the preset file that names `function`, so glue errors point at the effect's entry.
    static func line(of function: String, in file: String) -> Int {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return 0 }
        for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        where line.contains("\"\(function)\"") {
            return i + 1
        }
        return 0
    }
}
