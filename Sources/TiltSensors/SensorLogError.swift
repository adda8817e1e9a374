/// A problem with a sensor log: where it is (file, line, column) and what to do about it.
public struct SensorLogError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The log's path.
    public var path: String
    /// 1-based line number in the file, or `nil` for problems with the file as a whole.
    public var line: Int?
    /// The column's name, where one column is at fault.
    public var column: String?
    /// What is wrong.
    public var message: String

    public init(path: String, line: Int? = nil, column: String? = nil, message: String) {
        self.path = path
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String {
        var location = path
        if let line { location += ":\(line)" }
        if let column { location += " (column \(column))" }
        return "\(location): \(message)"
    }
}
