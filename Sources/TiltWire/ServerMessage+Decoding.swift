import FoundationEssentials
import TiltCore

/// Reading the daemon's lines: each message type reads its own fields (``WireMessage/decode(line:using:)``); this
/// reads `class` and hands the line to the type of that class.
extension ServerMessage {
    private struct Envelope: Decodable { var `class`: String }

    /// Decodes one line from the daemon.
    ///
    /// - Returns: `nil` for a well-formed object of a class this version does not know (newer daemons may add some).
    /// - Throws: ``WireError`` for a line that is not a valid message.
    public static func decode(_ line: some Collection<UInt8>) throws(WireError) -> ServerMessage? {
        let data = Data(line)
        let decoder = JSONDecoder()
        do {
            let envelope = try decoder.decode(Envelope.self, from: data)
            guard let messageClass = MessageClass(rawValue: envelope.class) else { return nil }
            return try decode(messageClass, line: data, using: decoder)
        } catch let error as WireError {
            throw error
        } catch {
            throw WireError(.malformedMessage, "cannot decode a message from the daemon: \(error)")
        }
    }
}
