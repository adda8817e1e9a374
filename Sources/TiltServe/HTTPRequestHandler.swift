import FoundationEssentials
import NIOCore
import NIOHTTP1
import TiltCore

/// Plain HTTP: the pages in the web folder, a preset's textures, and the answer to a WebSocket handshake that was
/// refused (403 with the reason, 503 when full) or that was not a handshake at all.
final class HTTPRequestHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let server: ServeServer.Shared
    private var request: HTTPRequestHead?

    init(server: ServeServer.Shared) { self.server = server }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): request = head
        case .body: break
        case .end:
            guard let head = request else { return }
            request = nil
            respond(to: head, context: context)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is IdleStateHandler.IdleStateEvent {
            context.close(promise: nil)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    private func respond(to head: HTTPRequestHead, context: ChannelHandlerContext) {
        guard head.method == .GET || head.method == .HEAD else {
            return send(.methodNotAllowed, text: "only GET is served\n", head: head, context: context)
        }
        let path = ServeAccess.path(of: head.uri)
        switch path {
        case "/motion", "/edit":
            if let refusal = server.access.refusal(uri: head.uri, headers: head.headers, checksOrigin: true) {
                return send(.forbidden, text: refusal.message + "\n", head: head, context: context)
            }
            if server.isFull {
                return send(
                    .serviceUnavailable, text: "too many connections (at most \(server.limits.maxClients))\n",
                    head: head, context: context)
            }
            send(
                .badRequest, text: "\(path) is a WebSocket: connect with ws://…\(path)?token=…\n", head: head,
                context: context)
        case _ where path.hasPrefix("/presets/"):
            if let refusal = server.access.refusal(uri: head.uri, headers: head.headers, checksOrigin: false) {
                return send(.forbidden, text: refusal.message + "\n", head: head, context: context)
            }
            let parts = path.dropFirst("/presets/".count).split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let file = server.textureFile(preset: String(parts[0]), file: String(parts[1]))
            else { return send(.notFound, text: "no such texture\n", head: head, context: context) }
            sendFile(file, head: head, context: context)
        default:
            let name = path == "/" ? "index.html" : String(path.dropFirst())
            guard let file = server.webFile(name) else {
                return send(.notFound, text: "not found\n", head: head, context: context)
            }
            sendFile(file, head: head, context: context)
        }
    }

    private func sendFile(_ path: String, head: HTTPRequestHead, context: ChannelHandlerContext) {
        guard let data = FileManager.default.contents(atPath: path) else {
            return send(.notFound, text: "not found\n", head: head, context: context)
        }
        var buffer = context.channel.allocator.buffer(capacity: data.count)
        buffer.writeBytes(data)
        send(.ok, body: buffer, contentType: Self.contentType(of: path), head: head, context: context)
    }

    private func send(_ status: HTTPResponseStatus, text: String, head: HTTPRequestHead, context: ChannelHandlerContext)
    {
        send(
            status, body: context.channel.allocator.buffer(string: text), contentType: "text/plain; charset=utf-8",
            head: head, context: context)
    }

    private func send(
        _ status: HTTPResponseStatus, body: ByteBuffer, contentType: String, head: HTTPRequestHead,
        context: ChannelHandlerContext
    ) {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: contentType)
        headers.add(name: "Content-Length", value: "\(body.readableBytes)")
        headers.add(name: "Cache-Control", value: "no-store")
        headers.add(name: "X-Content-Type-Options", value: "nosniff")
        let keepAlive = head.isKeepAlive && status == .ok
        if !keepAlive { headers.add(name: "Connection", value: "close") }
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))),
            promise: nil)
        if head.method != .HEAD { context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil) }
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
            if !keepAlive { channel.close(promise: nil) }
        }
    }

    /// The `Content-Type` of a served file, from its extension.
    static func contentType(of path: String) -> String {
        switch PathText.fileExtension(of: path).lowercased() {
        case "html", "htm": "text/html; charset=utf-8"
        case "js", "mjs": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "json": "application/json"
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "svg": "image/svg+xml"
        case "txt", "glsl", "md": "text/plain; charset=utf-8"
        case "ico": "image/x-icon"
        default: "application/octet-stream"
        }
    }
}
