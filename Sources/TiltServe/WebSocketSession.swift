import FoundationEssentials
import Logging
import NIOCore
import NIOWebSocket
import TiltCore

/// What a WebSocket route does with a connection's messages (called on the connection's event loop).
protocol WebSocketEndpoint: AnyObject {
    /// The connection is open; `session` sends to it.
    func opened(_ session: WebSocketSession)
    /// A text message arrived (within the size and rate limits).
    func received(_ text: String, from session: WebSocketSession)
    /// The connection is gone.
    func closed()
}

/// One WebSocket connection: whole text messages in (fragments joined by `NIOWebSocketFrameAggregator`), the size
/// and rate limits, pings, the closing handshake, and text messages out.
final class WebSocketSession: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let endpoint: any WebSocketEndpoint
    private let logger: Logger
    private let maxMessage: Int
    private var limit: MessageRateLimit
    private let limits: ServeConfiguration.Limits
    private var context: ChannelHandlerContext?
    private var closing = false

    init(endpoint: any WebSocketEndpoint, maxMessage: Int, limits: ServeConfiguration.Limits, logger: Logger) {
        self.endpoint = endpoint
        self.logger = logger
        self.maxMessage = maxMessage
        self.limit = MessageRateLimit(limits)
        self.limits = limits
    }

    /// The event loop the connection runs on.
    var eventLoop: (any EventLoop)? { context?.eventLoop }

    /// Whether a message sent now would be queued without waiting (a page that does not read is sent no frames).
    var isWritable: Bool { context?.channel.isWritable ?? false }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        endpoint.opened(self)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        endpoint.closed()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .connectionClose:
            close(code: .normalClosure, reason: "")
        case .ping:
            guard frame.fin else { return }
            send(WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData))
        case .text:
            guard !closing else { return }
            var data = frame.unmaskedData
            guard data.readableBytes <= maxMessage else {
                close(code: .messageTooLarge, reason: "message over \(maxMessage) bytes")
                return
            }
            switch limit.admit(at: monotonicSeconds()) {
            case .accept:
                endpoint.received(data.readString(length: data.readableBytes) ?? "", from: self)
            case .refuse:
                sendError(
                    "too many messages: at most \(Int(limits.messagesPerSecond)) a second, bursts of "
                        + "\(Int(limits.messageBurst)); slow down")
            case .close:
                close(code: .policyViolation, reason: "too many messages (flooding)")
            }
        case .binary:
            sendError("binary messages are not understood; send JSON text")
        default:
            break
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        let tooLarge: Bool
        switch error {
        case let error as NIOWebSocketError: tooLarge = error == .invalidFrameLength
        case NIOWebSocketFrameAggregator.Error.accumulatedFrameSizeIsTooLarge: tooLarge = true
        default: tooLarge = false
        }
        logger.notice("closing a WebSocket: \(error)")
        if tooLarge {
            close(code: .messageTooLarge, reason: "message over \(maxMessage) bytes")
        } else {
            close(code: .protocolError, reason: "\(error)")
        }
    }

    /// Sends one text message.
    func send(text: String) {
        guard let context else { return }
        send(textBuffer: context.channel.allocator.buffer(string: text))
    }

    /// Sends one text message whose UTF-8 bytes are `textBuffer` (a line from tiltd, passed on without a copy).
    func send(textBuffer: ByteBuffer) {
        guard context != nil, !closing else { return }
        send(WebSocketFrame(fin: true, opcode: .text, data: textBuffer))
    }

    /// Sends `{"class":"error","message":…}`.
    func sendError(_ message: String) {
        send(text: ServeJSON.error(message))
    }

    /// Starts the closing handshake with `code` and `reason`, then closes the connection.
    func close(code: WebSocketErrorCode, reason: String) {
        guard let context, !closing else { return }
        closing = true
        var buffer = context.channel.allocator.buffer(capacity: 2 + reason.utf8.count)
        buffer.write(webSocketErrorCode: code)
        buffer.writeString(String(reason.utf8.prefix(120)) ?? "")
        let frame = WebSocketFrame(fin: true, opcode: .connectionClose, data: buffer)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(frame)).whenComplete { _ in channel.close(promise: nil) }
    }

    private func send(_ frame: WebSocketFrame) {
        guard let context else { return }
        context.writeAndFlush(wrapOutboundOut(frame), promise: nil)
    }
}
