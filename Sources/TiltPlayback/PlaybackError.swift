/// A sensor log that cannot be played back, with what is wrong and what to do.
public struct PlaybackError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The log's path.
    public var path: String
    /// What is wrong with it, and what to do.
    public var reason: String

    public var description: String { "cannot read \(path): \(reason)" }
}
