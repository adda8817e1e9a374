/// The shape of tilt's library errors: a kind a caller can switch on, and the words for people.
///
/// Each library names its own (`typealias WireError = TiltError<WireErrorKind>`, `DaemonError`, …), with a `Kind`
/// enum of what can go wrong there; the words say what went wrong, where, and what to do. Errors that carry more
/// than words (a path and line, a typed cause) have types of their own with the same two parts.
public struct TiltError<Kind: Sendable & Hashable>: Error, CustomStringConvertible, Sendable, Hashable {
    /// What can go wrong here.
    public typealias Kind = Kind

    /// What went wrong.
    public var kind: Kind
    /// What went wrong, where, and what to do.
    public var message: String

    /// An error of `kind`, with the words for people.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
