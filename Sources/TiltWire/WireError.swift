/// A protocol line that could not be understood; its message goes back to the peer in an `error` object.
public struct WireError: Error, CustomStringConvertible, Sendable, Equatable {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
