import Foundation

/// The JSON both WebSockets speak: objects parsed from a message, objects written as one line.
enum ServeJSON {
    /// `object` as compact JSON text (keys sorted, slashes unescaped).
    static func string(_ object: [String: Any]) -> String {
        guard
            let data = try? JSONSerialization.data(
                withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed])
        else { return #"{"class":"error","message":"internal error: an answer could not be written as JSON"}"# }
        return String(decoding: data, as: UTF8.self)
    }

    /// The JSON object in `text`, or why there is none.
    static func object(_ text: String) -> Result<[String: Any], ServeMessageError> {
        guard let data = text.data(using: .utf8),
            let value = try? JSONSerialization.jsonObject(with: data, options: [])
        else { return .failure(ServeMessageError("not JSON: send one JSON object per message")) }
        guard let object = value as? [String: Any] else {
            return .failure(ServeMessageError("not a JSON object: send {\"cmd\":…}"))
        }
        return .success(object)
    }
}

/// A message a page sent that the server cannot act on; the text goes back in an `error` message.
struct ServeMessageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
