import FoundationEssentials
import TiltCore

/// The JSON both WebSockets speak: typed messages, each read with `JSONDecoder` and written with `JSONEncoder` as one
/// compact object (keys sorted, slashes unescaped).
enum ServeJSON {
    /// `value` as compact JSON text.
    static func string(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else {
            return #"{"class":"error","message":"internal error: an answer could not be written as JSON"}"#
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// The message of type `Message` in `text`.
    ///
    /// - Throws: `ServeMessageError` saying what is wrong: not JSON, not an object, or what `Message` itself found
    ///   missing (its decoder throws a `ServeMessageError` for that, which comes out as it is).
    static func decode<Message: Decodable>(_: Message.Type, from text: String) throws(ServeMessageError) -> Message {
        do {
            return try JSONDecoder().decode(Message.self, from: Data(text.utf8))
        } catch let error as ServeMessageError {
            throw error
        } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
            throw ServeMessageError(.notAnObject, "not JSON: send one JSON object per message")
        } catch {
            throw ServeMessageError(.notAnObject, "not a JSON object: send {\"cmd\":…}")
        }
    }

    /// `{"class":"error","message":…}`.
    static func error(_ message: String) -> String { string(ErrorReply(message: message)) }

    private struct ErrorReply: Encodable {
        let `class` = "error"
        var message: String
    }
}

/// A message a page sent that the server cannot act on: a kind the server (and a test) can switch on, and the text
/// that goes back to the page in an `error` message.
typealias ServeMessageError = TiltError<ServeMessageErrorKind>

/// What is wrong.
enum ServeMessageErrorKind: Sendable, Hashable {
    /// Not one JSON object.
    case notAnObject
    /// No `cmd`, or one `/edit` does not know.
    case unknownCommand
    /// A field the command needs is missing or of the wrong type.
    case missingField
    /// No preset of that name can be edited (not a plain name, not found, not a folder).
    case noSuchPreset
    /// A file name that may not be saved (absolute, outside the folder, not preset.json or .glsl, not a plain
    /// file).
    case refusedFile
    /// Reading, listing or writing the preset's files failed.
    case io
}
