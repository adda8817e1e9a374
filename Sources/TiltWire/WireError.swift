import TiltCore

/// A protocol line that could not be understood: a kind a caller can switch on, and the words for people (which go
/// back to the peer in an `error` object).
public typealias WireError = TiltError<WireErrorKind>

/// What is wrong with the line.
public enum WireErrorKind: Sendable, Hashable {
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
