import Foundation
import Logging
import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing
import TiltEffects
import TiltTestKit

@testable import TiltServe

/// `tiltfx serve`'s plain HTTP on NIO's `EmbeddedChannel`: what each request is answered with, with no server
/// process or socket (the served pages in Chromium and the WebSocket endpoints are tested against a real server).
@Suite struct HTTPRequestHandlerEmbeddedTests {
    /// The handler's answer: status, headers and body, and whether it closed the connection after it.
    struct Answer {
        var head: HTTPResponseHead
        var body: String
        var closed: Bool
    }

    private static let token = "0123abcd"

    /// A web folder with one page, and a shared server state over it (its GL compile thread stopped after `body`).
    private func withServer(_ body: (ServeServer.Shared) throws -> Void) throws {
        let web = TestPaths.temporaryDirectory("tilt-web")
        try "<p>tilt</p>\n".write(to: web.appendingPathComponent("index.html"), atomically: false, encoding: .utf8)
        try "let x = 1\n".write(to: web.appendingPathComponent("app.js"), atomically: false, encoding: .utf8)
        var configuration = ServeConfiguration(
            socketPath: "/tmp/tilt-none.sock", library: PresetLibrary(searchPaths: []), webDirectory: web.path)
        configuration.token = Self.token
        let compiler = ShaderCompileThread()
        defer { compiler.stop() }
        try body(
            ServeServer.Shared(configuration: configuration, port: 8765, compiler: compiler, logger: Logger(label: "t"))
        )
    }

    private func ask(_ server: ServeServer.Shared, _ method: HTTPMethod, _ uri: String) throws -> Answer {
        let channel = EmbeddedChannel(handler: HTTPRequestHandler(server: server))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        var head = HTTPRequestHead(version: .http1_1, method: method, uri: uri)
        head.headers.add(name: "Host", value: "127.0.0.1:8765")
        try channel.writeInbound(HTTPServerRequestPart.head(head))
        try channel.writeInbound(HTTPServerRequestPart.end(nil))
        channel.embeddedEventLoop.run()
        var answerHead: HTTPResponseHead?
        var body = ""
        while let part = try channel.readOutbound(as: HTTPServerResponsePart.self) {
            switch part {
            case .head(let h): answerHead = h
            case .body(.byteBuffer(let buffer)): body += String(buffer: buffer)
            case .body: break
            case .end: break
            }
        }
        let closed = !channel.isActive
        if !closed { _ = try? channel.finish() }
        return Answer(head: try #require(answerHead, "no response head"), body: body, closed: closed)
    }

    @Test("a page of the web folder is served with its type, length and no caching; the connection stays open")
    func servesAPage() throws {
        try withServer { server in
            let page = try ask(server, .GET, "/")
            #expect(page.head.status == .ok)
            #expect(page.body == "<p>tilt</p>\n")
            #expect(page.head.headers["Content-Type"] == ["text/html; charset=utf-8"])
            #expect(page.head.headers["Content-Length"] == ["12"])
            #expect(page.head.headers["Cache-Control"] == ["no-store"])
            #expect(page.head.headers["X-Content-Type-Options"] == ["nosniff"])
            #expect(!page.closed, "keep-alive for a page served")
            let script = try ask(server, .GET, "/app.js")
            #expect(script.head.headers["Content-Type"] == ["text/javascript; charset=utf-8"])
            let head = try ask(server, .HEAD, "/")
            #expect(head.head.status == .ok && head.body.isEmpty && head.head.headers["Content-Length"] == ["12"])
        }
    }

    @Test("what is not a page is refused with a plain reason and the connection closed")
    func refusals() throws {
        try withServer { server in
            let post = try ask(server, .POST, "/")
            #expect(post.head.status == .methodNotAllowed && post.body == "only GET is served\n" && post.closed)
            for uri in ["/missing.html", "/../etc/passwd", "/a%2Fb", "/presets/none/x.png?token=\(Self.token)"] {
                let missing = try ask(server, .GET, uri)
                #expect(missing.head.status == .notFound, "\(uri)")
                #expect(missing.closed, "\(uri)")
            }
            let noToken = try ask(server, .GET, "/motion")
            #expect(noToken.head.status == .forbidden)
            let plain = try ask(server, .GET, "/motion?token=\(Self.token)")
            #expect(plain.head.status == .badRequest)
            #expect(plain.body == "/motion is a WebSocket: connect with ws://…/motion?token=…\n")
        }
    }
}
