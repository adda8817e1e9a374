/// A protocol line that could not be understood: a kind a caller can switch on, and the words for people (which go
/// back to the peer in an `error` object).
public struct WireError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What is wrong with the line.
    public enum Kind: Sendable, Hashable {
        /// Longer than ``WireProtocol/maxLineLength``.
        case lineTooLong
        /// Not JSON, or not one JSON object.
        case notAnObject
        /// A field has the wrong JSON type (its name).
        case wrongType(field: String)
        /// A command without `cmd`.
        case missingCommand
        /// A command this protocol does not know (its name).
        case unknownCommand(String)
        /// A field's value is out of range (its name).
        case badValue(field: String)
        /// A line from the daemon that is not a valid message of its class.
        case malformedMessage
        /// The peer's own complaint: an `error` message it sent.
        case reported
    }

    /// What is wrong.
    public var kind: Kind
    /// What is wrong, and what a valid line looks like.
    public var message: String

    /// An error of `kind`, with the words for people.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
