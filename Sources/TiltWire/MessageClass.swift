import FoundationEssentials

/// The `class` of a message tiltd sends: the protocol's one list of them (docs/protocol.md).
///
/// Every message type names its class (``WireMessage/messageClass``), ``ServerMessage`` has one case per class, and
/// ``ServerMessage/decode(_:)`` dispatches on this enum, so the compiler points at each place a new class must be
/// handled.
public enum MessageClass: String, Sendable, Hashable, CaseIterable {
    case hello
    case attitude
    case sample
    case gap
    case power
    case sensor
    case orientation
    case status
    case tare
    case error

    /// The bytes every line of this class starts with: ``JSONWriter`` is the one encoder and a message writes its
    /// `class` first, so a client on a hot path can sort lines without decoding them.
    public var linePrefix: [UInt8] {
        var w = JSONWriter()
        w.field("class", self)
        var text = w.finish()
        text.removeLast()  // the closing brace
        return Array(text.utf8)
    }
}

/// One message tiltd sends: a type that knows its class, writes its own fields and reads itself back.
///
/// Adding a message to the protocol is: a type conforming to this, a ``MessageClass`` case, a ``ServerMessage``
/// case (the compiler then asks for its line in the two switches of `ServerMessage.swift`), its entry in
/// docs/protocol.md and its example in `MessageClassTests`.
public protocol WireMessage: Sendable, Equatable {
    /// The `class` this message goes by.
    static var messageClass: MessageClass { get }
    /// Writes the message's fields, in wire order, after the `class` that ``jsonLine`` writes first.
    func writeFields(into w: inout JSONWriter)
    /// Reads the message from its whole line (`class` included, which it may ignore), leniently where the protocol
    /// allows (`null` for a non-finite number, a missing optional field).
    static func decode(line: Data, using decoder: JSONDecoder) throws -> Self
}

extension WireMessage {
    /// The message's JSON line, without the newline: `class` first, then its fields.
    public var jsonLine: String {
        var w = JSONWriter()
        w.field("class", Self.messageClass)
        writeFields(into: &w)
        return w.finish()
    }
}

extension WireMessage where Self: Decodable {
    /// A message whose `Decodable` conformance reads its fields.
    public static func decode(line: Data, using decoder: JSONDecoder) throws -> Self {
        try decoder.decode(Self.self, from: line)
    }
}
