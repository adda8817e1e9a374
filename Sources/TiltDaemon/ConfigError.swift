/// A problem in a `tiltd` config file, naming the file, the line and the key, and what was expected.
public struct ConfigError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The config file.
    public var path: String
    /// The 1-based line, or `nil` for a problem with the whole file (it cannot be read).
    public var line: Int?
    /// The key the problem is about, if any.
    public var key: String?
    /// What is wrong and what to write instead.
    public var reason: String

    public init(path: String, line: Int?, key: String?, reason: String) {
        self.path = path
        self.line = line
        self.key = key
        self.reason = reason
    }

    /// `FILE:LINE: key 'KEY': REASON`, the shape compilers use, so editors can jump to it.
    public var description: String {
        var text = path
        if let line { text += ":\(line)" }
        text += ": "
        if let key { text += "key '\(key)': " }
        return text + reason
    }
}
