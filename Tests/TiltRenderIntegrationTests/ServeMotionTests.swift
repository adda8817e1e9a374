import Foundation
import Testing
import TiltCore
import TiltTestKit

/// `/motion` against a real `tiltd --replay` and a real `tiltfx serve`.
@Suite(.serialized)
struct ServeMotionTests {
    /// tiltd replaying the bundled log in a loop, and `tiltfx serve` relaying it.
    private static func start(_ directory: URL) throws -> (DaemonProcess, ServeProcess) {
        let daemon = try DaemonProcess.replaying(["--loop"], in: directory)
        _ = try daemon.greetedClient()
        return (daemon, try ServeProcess(socket: daemon.socketPath!, in: directory))
    }

    @Test func relaysHelloAttitudeAtTheAskedRateAndStatus() throws {
        let directory = TestPaths.temporaryDirectory("srv")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (daemon, serve) = try Self.start(directory)
        defer { _ = daemon.stop() }
        let page = try serve.socket("/motion", origin: "http://127.0.0.1:\(serve.port)")
        try #require(page.status == 101)
        // The server's clock first (this machine's monotonic and wall clocks, read together), then tiltd's hello.
        let clock = ServeProcess.object(try page.receiveText())
        #expect(clock?["class"] as? String == "clock", "\(clock ?? [:])")
        let mono = try #require(clock?["mono"] as? Double), wall = try #require(clock?["wall"] as? Double)
        #expect(abs(wall - mono - (Date().timeIntervalSince1970 - monotonicSeconds())) < 1, "\(clock ?? [:])")
        let hello = ServeProcess.object(try page.receiveText())
        #expect(hello?["class"] as? String == "hello")
        #expect(hello?["protocol"] as? Int == 1)

        try page.send(text: #"{"cmd":"watch","rate":20}"#)
        // Skip to the first frame, then count for 2 s.
        _ = try page.receive(class: "attitude")
        let start = Date()
        var frames = 0
        var last: [String: Any]?
        while Date().timeIntervalSince(start) < 2 {
            guard let text = try page.receiveText(timeout: 1) else { continue }
            if let object = ServeProcess.object(text), object["class"] as? String == "attitude" {
                frames += 1
                last = object
            }
        }
        #expect((30...48).contains(frames), "\(frames) attitude frames in 2 s at 20 Hz")
        #expect((last?["quaternion"] as? [Double])?.count == 4)

        try page.send(text: #"{"cmd":"status"}"#)
        let status = try page.receive(class: "status")
        #expect(status != nil)

        // A page that sends `watch` the moment it opens, before tiltd's hello, gets frames and no error.
        let eager = try serve.socket("/motion")
        try eager.send(text: #"{"cmd":"watch","rate":30}"#)
        var seen: [String] = []
        while seen.last != "attitude", let text = try eager.receiveText(timeout: 5) {
            seen.append(ServeProcess.object(text)?["class"] as? String ?? "?")
        }
        #expect(seen.prefix(2) == ["clock", "hello"], "\(seen)")
        #expect(seen.last == "attitude")
        #expect(!seen.contains("error"))
    }

    @Test func badJSONGetsAnErrorAndTheConnectionGoesOn() throws {
        let directory = TestPaths.temporaryDirectory("srv")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (daemon, serve) = try Self.start(directory)
        defer { _ = daemon.stop() }
        let page = try serve.socket("/motion")
        _ = try page.receiveText()  // hello
        try page.send(text: "{not json")
        let error = try page.receive(class: "error")
        #expect(error != nil)
        try page.send(text: #"{"cmd":"poll"}"#)
        let frame = try page.receive(class: "attitude")
        #expect(frame != nil)
    }

    @Test func anOversizeMessageClosesWith1009() throws {
        let directory = TestPaths.temporaryDirectory("srv")
        defer { try? FileManager.default.removeItem(at: directory) }
        let serve = try ServeProcess(socket: directory.appendingPathComponent("none.sock").path, in: directory)
        let page = try serve.socket("/motion")
        try page.send(text: #"{"cmd":"watch","pad":""# + String(repeating: "x", count: 8000) + #""}"#)
        let close = try page.receive(until: { if case .close = $0 { true } else { false } })
        guard case .close(let code, _) = close else {
            Issue.record("no close frame after an 8 KB message")
            return
        }
        #expect(code == 1009)

        // The same in fragments: the joined message is what counts.
        let fragmented = try serve.socket("/motion")
        try fragmented.send(text: String(repeating: "y", count: 6000), fragments: 4)
        let closeFragments = try fragmented.receive(until: { if case .close = $0 { true } else { false } })
        guard case .close(let codeFragments, _) = closeFragments else {
            Issue.record("no close frame after a fragmented 6 KB message")
            return
        }
        #expect(codeFragments == 1009)
    }

    @Test func floodingClosesWith1008() throws {
        let directory = TestPaths.temporaryDirectory("srv")
        defer { try? FileManager.default.removeItem(at: directory) }
        let serve = try ServeProcess(socket: directory.appendingPathComponent("none.sock").path, in: directory)
        let page = try serve.socket("/edit")
        var refusedForRate = false
        var closeCode: Int?
        // Send as fast as the server takes them, reading what comes back between sends, until it closes (sending on
        // after its close would make the kernel reset the connection and lose the close frame).
        for _ in 0..<400 where closeCode == nil {
            try page.send(text: #"{"cmd":"nothing"}"#)
            while closeCode == nil, let message = try page.receive(timeout: 0.002) {
                switch message {
                case .text(let text) where text.contains("too many messages"): refusedForRate = true
                case .close(let code, let reason):
                    closeCode = code
                    #expect(reason.contains("too many messages"))
                default: break
                }
            }
        }
        #expect(refusedForRate)
        #expect(closeCode == 1008)
    }

    @Test func withoutTiltdThePageIsToldAndTheRelayReconnects() throws {
        let directory = TestPaths.temporaryDirectory("srv")
        defer { try? FileManager.default.removeItem(at: directory) }
        let socket = DaemonProcess.temporarySocket(in: directory)
        let serve = try ServeProcess(socket: socket, in: directory)
        let page = try serve.socket("/motion")
        #expect(ServeProcess.object(try page.receiveText())?["class"] as? String == "clock")
        let error = ServeProcess.object(try page.receiveText())
        #expect(error?["class"] as? String == "error")
        #expect((error?["message"] as? String)?.contains("tiltd is not running at \(socket); start it with") == true)
        try page.send(text: #"{"cmd":"watch","rate":10}"#)

        let daemon = try DaemonProcess.replaying(["--loop"], in: directory)
        defer { _ = daemon.stop() }
        let hello = try page.receive(class: "hello", timeout: 15)
        #expect(hello != nil)
        // The page's last watch was sent again for it.
        let frame = try page.receive(class: "attitude")
        #expect(frame != nil)
    }
}
