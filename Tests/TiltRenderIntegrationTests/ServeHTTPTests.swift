import Foundation
import Testing
import TiltTestKit

/// `tiltfx serve`'s HTTP side and its handshake checks, against the real process.
@Suite(.serialized)
struct ServeHTTPTests {
    @Test func printsTheURLAndServesThePagesWithTheirTypes() throws {
        let directory = TestPaths.temporaryDirectory("srv")
        defer { try? FileManager.default.removeItem(at: directory) }
        let serve = try ServeProcess(socket: directory.appendingPathComponent("none.sock").path, in: directory)
        #expect(serve.url.hasPrefix("http://127.0.0.1:\(serve.port)/?token="))
        #expect(serve.token.count == 32 && serve.token.allSatisfy(\.isHexDigit))

        let index = try WebSocketTestClient.get(port: serve.port, path: "/")
        #expect(index.status == 200)
        #expect(index.headers["content-type"] == "text/html; charset=utf-8")
        #expect(index.headers["cache-control"] == "no-store")
        #expect(String(decoding: index.body, as: UTF8.self).contains("<title>tilt</title>"))

        let script = try WebSocketTestClient.get(port: serve.port, path: "/tilt.js")
        #expect(script.status == 200)
        #expect(script.headers["content-type"] == "text/javascript; charset=utf-8")
        #expect(String(decoding: script.body, as: UTF8.self) == "export const tilt = 1;\n")

        for path in ["/../Package.swift", "/%2e%2e/Package.swift", "/nope.js", "/.hidden", "/web/index.html"] {
            let refused = try WebSocketTestClient.get(port: serve.port, path: path)
            #expect(refused.status == 404, "\(path)")
            #expect(!String(decoding: refused.body, as: UTF8.self).contains("PackageDescription"), "\(path)")
        }
    }

    @Test func presetTexturesNeedTheToken() throws {
        let directory = TestPaths.temporaryDirectory("srv")
        defer { try? FileManager.default.removeItem(at: directory) }
        let serve = try ServeProcess(socket: directory.appendingPathComponent("none.sock").path, in: directory)
        let mask = try WebSocketTestClient.get(
            port: serve.port, path: "/presets/holo-card/foil-mask.png?token=\(serve.token)")
        #expect(mask.status == 200)
        #expect(mask.headers["content-type"] == "image/png")
        #expect(Array(mask.body.prefix(4)) == [0x89, 0x50, 0x4e, 0x47])
        #expect(try WebSocketTestClient.get(port: serve.port, path: "/presets/holo-card/foil-mask.png").status == 403)
        let glsl = try WebSocketTestClient.get(
            port: serve.port, path: "/presets/holo-card/card.glsl?token=\(serve.token)")
        #expect(glsl.status == 404)
        let out = try WebSocketTestClient.get(
            port: serve.port, path: "/presets/..%2f..%2fetc/passwd?token=\(serve.token)")
        #expect(out.status == 404)
    }

    @Test func handshakesWithoutTheTokenOrFromAForeignOriginAreRefused() throws {
        let directory = TestPaths.temporaryDirectory("srv")
        defer { try? FileManager.default.removeItem(at: directory) }
        let serve = try ServeProcess(
            socket: directory.appendingPathComponent("none.sock").path, in: directory,
            extra: ["--allow-origin", "http://localhost:3000"])
        for path in ["/motion", "/edit"] {
            let missing = try WebSocketTestClient(port: serve.port, path: path)
            #expect(missing.status == 403)
            #expect(missing.body.contains("missing or wrong token; open the URL tiltfx serve printed"))
            let wrong = try WebSocketTestClient(
                port: serve.port, path: "\(path)?token=00000000000000000000000000000000")
            #expect(wrong.status == 403)

            let foreign = try serve.socket(path, origin: "https://evil.example")
            #expect(foreign.status == 403)
            #expect(
                foreign.body.contains(
                    "origin https://evil.example is not allowed; pass --allow-origin https://evil.example"))

            #expect(try serve.socket(path, origin: "http://127.0.0.1:\(serve.port)").status == 101)
            #expect(try serve.socket(path, origin: "http://localhost:\(serve.port)").status == 101)
            #expect(try serve.socket(path, origin: "http://localhost:3000").status == 101)
            #expect(try serve.socket(path).status == 101)  // no Origin: not a browser; the token is enough
        }
    }

    @Test func refusesClientsOverTheLimitAndEndsCleanlyOnSIGTERM() throws {
        let directory = TestPaths.temporaryDirectory("srv")
        defer { try? FileManager.default.removeItem(at: directory) }
        let serve = try ServeProcess(socket: directory.appendingPathComponent("none.sock").path, in: directory)
        var open: [WebSocketTestClient] = []
        for _ in 0..<32 {
            let client = try serve.socket("/edit")
            try #require(client.status == 101)
            open.append(client)
        }
        let extra = try serve.socket("/edit")
        #expect(extra.status == 503)
        open.removeLast()
        // The server counts the connection gone once it sees it closed.
        #expect(eventually(timeout: 5) { (try? serve.socket("/edit").status) == 101 })

        #expect(serve.process.kill(SIGTERM, timeout: 10))
        // What the server wrote is said with a failure: an abort at shutdown has been seen once, rarely.
        #expect(serve.process.process.terminationStatus == 0, "stderr: \(serve.process.stderr)")
        #expect(serve.process.process.terminationReason == .exit)
    }

    @Test func badListenIsAUsageMistakeAndAMissingWebFolderAnError() throws {
        let result = try ChildProcess.run(TestPaths.executable("tiltfx"), ["serve", "--listen", "localhost"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("error: --listen localhost: give HOST:PORT"))
        let noWeb = try ChildProcess.run(TestPaths.executable("tiltfx"), ["serve", "--web", "/nowhere"])
        #expect(noWeb.status == 1)
        #expect(noWeb.stderr.contains("error: --web /nowhere: no index.html there"))
    }

    @Test func aNonLoopbackListenWarns() throws {
        let directory = TestPaths.temporaryDirectory("srv")
        defer { try? FileManager.default.removeItem(at: directory) }
        let serve = try ServeProcess(
            socket: directory.appendingPathComponent("none.sock").path, in: directory, listen: "0.0.0.0:0")
        #expect(eventually(timeout: 5) { serve.process.stderr.contains("warning: listening on 0.0.0.0, not loopback") })
        #expect(try WebSocketTestClient.get(port: serve.port, path: "/").status == 200)
        // The printed URL is a loopback one, and a page opened from it may connect.
        #expect(serve.url.hasPrefix("http://127.0.0.1:\(serve.port)/?token="))
        #expect(try serve.socket("/motion", origin: "http://127.0.0.1:\(serve.port)").status == 101)
    }
}

/// `tiltfx serve` prints its URL through StandardOutput: with no one left to read it, it ends by SIGPIPE rather than
/// serving an address no one was told.
@Suite struct ServeURLReaderTests {
    @Test func aURLNoOneReadsEndsServeBySIGPIPE() throws {
        let directory = TestPaths.temporaryDirectory("srv")
        defer { try? FileManager.default.removeItem(at: directory) }
        let r = try ClosingReader.run(
            TestPaths.executable("tiltfx"),
            ["serve", "--listen", "127.0.0.1:0", "--socket", directory.appendingPathComponent("none.sock").path],
            lines: 0)
        #expect(r.endedBySIGPIPE, "ended by \(r.ending)")
    }
}
