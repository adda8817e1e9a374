/// What can go wrong with one kind of file, and the words that come before its path in a message.
public protocol FileErrorKind: Sendable, Hashable {
    /// What failed, as the start of a sentence about the file: `cannot read`, `cannot use image`.
    var failure: String { get }
    /// The whole message about the file at `path`; by default `failure path: reason`.
    func message(path: String, reason: String) -> String
}

extension FileErrorKind {
    public func message(path: String, reason: String) -> String { "\(failure) \(path): \(reason)" }
}

/// A file that cannot be used: a kind a caller can switch on, the file, and why (with what to do).
///
/// Each library names its own (`typealias PNGFileError = FileError<PNGFileErrorKind>`, `PlaybackError`,
/// `ImageError`); the message reads `cannot read PATH: REASON`, with the kind's own first words.
public struct FileError<Kind: FileErrorKind>: Error, CustomStringConvertible, Sendable, Hashable {
    /// What can go wrong with the file.
    public typealias Kind = Kind

    /// What went wrong.
    public var kind: Kind
    /// The file, as given.
    public var path: String
    /// Why, and what to do.
    public var reason: String

    /// An error of `kind` about the file at `path`.
    public init(_ kind: Kind, path: String, reason: String) {
        self.kind = kind
        self.path = path
        self.reason = reason
    }

    public var description: String { kind.message(path: path, reason: reason) }
}
