import NIOCore

/// What the line decoder passes on: a complete line, or notice that an over-long one was dropped.
public enum LineEvent: Sendable {
    /// One line without its `\n` (and without a trailing `\r`).
    case line(ByteBuffer)
    /// A line longer than the limit was discarded; `length` is how many bytes it had when it was cut.
    case overlong(length: Int)
}

/// Splits the inbound byte stream into lines, capping their length.
///
/// A line longer than `maxLength` is not buffered: the decoder reports it once as ``LineEvent/overlong(length:)``,
/// discards bytes up to the next newline, and then carries on with the next line. Memory per connection stays
/// bounded by `maxLength` whatever the peer sends.
public struct LineFrameDecoder: ByteToMessageDecoder {
    public typealias InboundOut = LineEvent

    public let maxLength: Int
    private var discarding = false

    public init(maxLength: Int = WireProtocol.maxLineLength) {
        self.maxLength = maxLength
    }

    public mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        let view = buffer.readableBytesView
        if let nl = view.firstIndex(of: UInt8(ascii: "\n")) {
            let length = nl - view.startIndex
            if discarding {
                buffer.moveReaderIndex(forwardBy: length + 1)
                discarding = false
                return .continue
            }
            if length > maxLength {
                buffer.moveReaderIndex(forwardBy: length + 1)
                context.fireChannelRead(wrapInboundOut(.overlong(length: length)))
                return .continue
            }
            var line = buffer.readSlice(length: length)!
            buffer.moveReaderIndex(forwardBy: 1)
            if line.readableBytesView.last == UInt8(ascii: "\r") { line.moveWriterIndex(to: line.writerIndex - 1) }
            context.fireChannelRead(wrapInboundOut(.line(line)))
            return .continue
        }
        if buffer.readableBytes > maxLength {
            if !discarding {
                discarding = true
                context.fireChannelRead(wrapInboundOut(.overlong(length: buffer.readableBytes)))
            }
            buffer.moveReaderIndex(to: buffer.writerIndex)
        }
        return .needMoreData
    }

    public mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        // A final line without a newline is still a line.
        while try decode(context: context, buffer: &buffer) == .continue {}
        if buffer.readableBytes > 0, !discarding {
            let line = buffer.readSlice(length: buffer.readableBytes)!
            context.fireChannelRead(wrapInboundOut(.line(line)))
        }
        buffer.moveReaderIndex(to: buffer.writerIndex)
        return .needMoreData
    }
}
