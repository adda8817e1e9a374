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
/// bounded by `maxLength` whatever the peer sends. The rules themselves live in ``LineSplitter``.
public struct LineFrameDecoder: ByteToMessageDecoder {
    public typealias InboundOut = LineEvent

    public var maxLength: Int { splitter.maxLength }
    private var splitter: LineSplitter

    public init(maxLength: Int = WireProtocol.maxLineLength) {
        splitter = LineSplitter(maxLength: maxLength)
    }

    public mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        let step = splitter.next(buffer.readableBytesView)
        guard step != .needMoreData else { return .needMoreData }
        apply(step, context: context, buffer: &buffer)
        return .continue
    }

    public mutating func decodeLast(
        context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool
    ) throws -> DecodingState {
        while try decode(context: context, buffer: &buffer) == .continue {}
        if let step = splitter.finish(buffer.readableBytesView) { apply(step, context: context, buffer: &buffer) }
        return .needMoreData
    }

    private func apply(_ step: LineSplitter.Step, context: ChannelHandlerContext, buffer: inout ByteBuffer) {
        switch step {
        case .line(let length, let consumed):
            let line = buffer.getSlice(at: buffer.readerIndex, length: length)!
            buffer.moveReaderIndex(forwardBy: consumed)
            context.fireChannelRead(wrapInboundOut(.line(line)))
        case .overlong(let length, let consumed):
            buffer.moveReaderIndex(forwardBy: consumed)
            context.fireChannelRead(wrapInboundOut(.overlong(length: length)))
        case .discard(let consumed):
            buffer.moveReaderIndex(forwardBy: consumed)
        case .needMoreData:
            break
        }
    }
}
