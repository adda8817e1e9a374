/// A sensor log that cannot be played back, with what is wrong and what to do.
public struct PlaybackError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the log.
    public enum Kind: Sendable, Hashable {
        /// It cannot be read (missing, damaged, truncated; under `--strict`, a bad row).
        case unreadable
        /// It holds no samples.
        case empty
    }

    /// What is wrong with the log.
    public var kind: Kind
    /// The log's path.
    public var path: String
    /// What is wrong with it, and what to do.
    public var reason: String

    /// An error of `kind` about the log at `path`.
    public init(_ kind: Kind, path: String, reason: String) {
        self.kind = kind
        self.path = path
        self.reason = reason
    }

    public var description: String { "cannot read \(path): \(reason)" }
}
