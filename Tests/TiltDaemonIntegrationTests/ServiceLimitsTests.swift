import Foundation
import Testing
import TiltTestKit

#if canImport(Glibc)
    import Glibc
#endif

/// Arrival times of frames, written by one reader thread and read after it is done (the group wait orders it).
private final class Arrivals: @unchecked Sendable {
    var times: [Date] = []
}

/// Per-client limits: how many clients, how long a line, how many commands per second.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct ServiceLimitsTests {
    private func start(_ extra: [String], in dir: URL) throws -> (DaemonProcess, String) {
        let daemon = try DaemonProcess.replaying(["--loop", "--speed", "4", "--no-power"] + extra, in: dir)
        return (daemon, DaemonProcess.temporarySocket(in: dir))
    }

    @Test("max_clients 3: the fourth client gets one error line and is closed; a freed place can be taken")
    func maxClients() throws {
        let dir = TestPaths.temporaryDirectory("limC")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (daemon, path) = try start(["--max-clients", "3"], in: dir)
        var clients: [LineSocket] = []
        for _ in 0..<3 {
            let client = try LineSocket(path: path)
            _ = try #require(client.read(class: "hello"), "\(daemon.log)")
            clients.append(client)
        }
        let fourth = try LineSocket(path: path)
        let line = try #require(fourth.readLine(), "the fourth client must get an error line")
        let error = try #require(LineSocket.parse(line))
        #expect(error["class"] as? String == "error")
        let message = try #require(error["message"] as? String)
        #expect(message.contains("the daemon is full (limit 3 clients)"), "\(message)")
        #expect(fourth.readLine(timeout: 5) == nil, "then it is closed, with no hello")
        #expect(eventually(timeout: 5) { daemon.log.contains("client refused: the daemon is full") }, "\(daemon.log)")

        clients.removeLast()
        let freed = try eventually(timeout: 10) { try LineSocket(path: path).read(class: "hello", timeout: 1) != nil }
        #expect(freed, "a place freed by a client that left is taken")
        #expect(daemon.stop() == 0)
    }

    @Test("max_line_length: a longer line gets an error naming the limit, and the connection goes on")
    func overlongLine() throws {
        let dir = TestPaths.temporaryDirectory("limL")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (daemon, path) = try start(["--max-line-length", "128"], in: dir)
        let client = try LineSocket(path: path)
        _ = try #require(client.read(class: "hello"), "\(daemon.log)")
        try client.send(#"{"cmd":"status","pad":""# + String(repeating: "x", count: 100) + #""}"#)
        #expect(client.read(class: "status") != nil, "a line under the limit is served")
        try client.send(#"{"cmd":"status","pad":""# + String(repeating: "x", count: 200) + #""}"#)
        let error = try #require(client.read(class: "error"))
        let message = try #require(error["message"] as? String)
        #expect(message.contains("too long") && message.contains("the limit is 128"), "\(message)")
        #expect(try client.status() != nil, "the connection is still usable")
        #expect(daemon.stop() == 0)
    }

    @Test("a flood gets rate-limit errors, then a final error and a disconnect; a watcher keeps its frames")
    func rateLimitAndFlood() throws {
        let dir = TestPaths.temporaryDirectory("limR")
        defer { try? FileManager.default.removeItem(at: dir) }
        // 5 commands per second: a burst of 10 passes, 20 refusals in a row disconnect.
        let (daemon, path) = try start(["--commands-per-second", "5"], in: dir)
        let watcher = try LineSocket(path: path)
        try watcher.send(#"{"cmd":"watch","rate":20}"#)
        _ = try #require(watcher.read(class: "attitude", timeout: 10), "\(daemon.log)")

        let flooder = try LineSocket(path: path)
        _ = try #require(flooder.read(class: "hello"))
        // The watcher reads all along, on its own thread, for 4 s: the flood is over well before.
        let arrivals = Arrivals()
        let reader = DispatchGroup()
        let readUntil = Deadline(seconds: 4)
        DispatchQueue.global().async(group: reader) {
            while !readUntil.hasPassed,
                let line = watcher.readLine(timeout: readUntil.remaining)
            {
                if LineSocket.parse(line)?["class"] as? String == "attitude" { arrivals.times.append(Date()) }
            }
        }
        try flooder.sendRaw(Array(String(repeating: #"{"cmd":"status"}"# + "\n", count: 200).utf8))
        var statuses = 0
        var limited = 0
        var final: String?
        while let line = flooder.readLine(timeout: 5) {
            guard let object = LineSocket.parse(line) else { continue }
            if object["class"] as? String == "status" { statuses += 1 }
            if object["class"] as? String == "error", let message = object["message"] as? String {
                if message.contains("disconnecting") {
                    final = message
                } else if message.hasPrefix("rate limit:") {
                    #expect(message.contains("command dropped"), "\(message)")
                    limited += 1
                }
            }
        }
        #expect((10...12).contains(statuses), "the burst passes: \(statuses) answered")
        #expect(limited == 20, "refusals before the disconnect: \(limited)")
        let message = try #require(final, "a flooder gets a final error")
        #expect(message.contains("21 commands in a row over 5 per second"), "\(message)")
        #expect(eventually(timeout: 5) { daemon.log.contains("client disconnected for flooding") }, "\(daemon.log)")

        // The watcher was not disturbed: frames keep coming after the flood.
        let floodOver = Date()
        reader.wait()
        let after = arrivals.times.filter { $0 > floodOver }.count
        #expect(after >= 15, "20 Hz after the flood gave \(after) frames")
        // A well-behaved client is not limited.
        #expect(try LineSocket(path: path).status() != nil)
        #expect(daemon.stop() == 0)
    }

    @Test("a client that floods and never reads is closed; memory does not grow with its replies")
    func floodWithoutReading() throws {
        let dir = TestPaths.temporaryDirectory("limW")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (daemon, path) = try start(["--commands-per-second", "0"], in: dir)
        let flooder = try LineSocket(path: path)
        flooder.setReceiveBuffer(4096)
        // 20 000 status commands (each answered with ~600 bytes) without reading a byte.
        let batch = Array(String(repeating: #"{"cmd":"status"}"# + "\n", count: 1000).utf8)
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(flooder.fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var sentBatches = 0
        for _ in 0..<20 {
            guard (try? flooder.sendRaw(batch)) != nil else { break }
            sentBatches += 1
        }
        // Either the daemon stopped reading (backpressure: sends time out) or it closed the connection.
        let closedOrStalled = eventually(timeout: 10) {
            daemon.log.contains("client does not read its replies") || sentBatches < 20
        }
        #expect(closedOrStalled, "sent \(sentBatches) batches; \(daemon.log)")
        #expect(try LineSocket(path: path).status() != nil, "the daemon keeps serving others")
        #expect(daemon.stop() == 0)
    }
}
