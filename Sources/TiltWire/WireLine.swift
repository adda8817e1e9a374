import NIOCore

/// One outbound line of the wire protocol, framed and ready to write: a message's JSON followed by `\n`.
///
/// This is the only place that frames outbound lines. A message is framed once, however many clients it goes to:
/// the daemon fans one frame out to every watcher, and each connection writes the same bytes without copying them.
/// The bytes are NIO's, but a holder (the daemon's hub) needs to know nothing of NIO to pass a line on.
public struct WireLine: Sendable, Equatable {
    /// The framed bytes: the JSON and its newline.
    public let bytes: ByteBuffer

    private init(bytes: ByteBuffer) {
        self.bytes = bytes
    }

    /// Frames one JSON object's text (which must hold no newline; ``JSONWriter`` never writes one).
    public init(json: String) {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(json.utf8.count + 1)
        buffer.writeString(json)
        buffer.writeInteger(UInt8(ascii: "\n"))
        self.init(bytes: buffer)
    }

    public init(_ message: ServerMessage) {
        self.init(json: message.jsonLine)
    }

    public init(_ command: ClientCommand) {
        self.init(json: command.jsonLine)
    }

    /// No bytes at all: written after the real lines, its completion says everything before it went out.
    public static let nothing = WireLine(bytes: ByteBuffer())

    /// The JSON text without the newline (for logs and tests).
    public var json: String {
        String(buffer: bytes.getSlice(at: bytes.readerIndex, length: max(0, bytes.readableBytes - 1)) ?? ByteBuffer())
    }
}
