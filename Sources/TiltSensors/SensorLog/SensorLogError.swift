/// A problem with a sensor log: where it is (file, line, column) and what to do about it.
package struct SensorLogError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What kind of problem it is, which decides whether a reader may go on past it: `file` (the file as a whole
    /// cannot be opened or read, or has no header), `header` (a required column is missing, or only some of
    /// `mag_x..z` are there), `row` (one data row is malformed; the rows after it can still be read, see
    /// ``BadRowPolicy``), `truncated` (the compressed stream ends early: the rest of the log is missing).
    package enum Kind: Sendable, Hashable { case file, header, row, truncated }

    /// The log's path.
    package var path: String
    /// 1-based line number in the file, or `nil` for problems with the file as a whole.
    package var line: Int?
    /// The column's name (or names, for a header), where columns are at fault.
    package var column: String?
    /// What is wrong.
    package var message: String
    /// What kind of problem it is.
    package var kind: Kind

    /// - Parameter kind: Defaults to ``Kind/row`` when a line is given, else ``Kind/file``.
    package init(path: String, line: Int? = nil, column: String? = nil, message: String, kind: Kind? = nil) {
        self.path = path
        self.line = line
        self.column = column
        self.message = message
        self.kind = kind ?? (line == nil ? .file : .row)
    }

    /// Whether a reader may skip this problem and go on with the next row: only a malformed row is skippable.
    package var isSkippable: Bool { kind == .row }

    /// `path:line (column c): message`; a header error leaves the column out, because its message names the
    /// missing columns and those the header has.
    package var description: String {
        var location = path
        if let line { location += ":\(line)" }
        if let column, kind != .header { location += " (column \(column))" }
        return "\(location): \(message)"
    }
}
