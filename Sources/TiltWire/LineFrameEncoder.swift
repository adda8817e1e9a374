import NIOCore

/// The outbound half of the line protocol, beside ``LineFrameDecoder``: writes each ``WireLine`` as its bytes.
///
/// A handler above it in the pipeline writes ``WireLine`` values and never touches bytes or newlines; the framing
/// itself is ``WireLine``'s, done once per message (not once per connection, which a `MessageToByteEncoder` would
/// do for a frame fanned out to many watchers).
public final class LineFrameEncoder: ChannelOutboundHandler, Sendable {
    public typealias OutboundIn = WireLine
    public typealias OutboundOut = ByteBuffer

    public init() {}

    public func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        context.write(wrapOutboundOut(unwrapOutboundIn(data).bytes), promise: promise)
    }
}
