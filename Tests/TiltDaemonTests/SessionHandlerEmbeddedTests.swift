import Logging
import NIOCore
import NIOEmbedded
import Testing
import TiltCore
import TiltWire

@testable import TiltDaemon

#if canImport(Glibc)
    import Glibc
#endif

/// A session on NIO's `EmbeddedChannel`: the handler's answers to lines, with a real hub and no socket or process
/// (what a process is needed for, the socket and its peer credentials, the end-to-end tests cover).
@Suite struct SessionHandlerEmbeddedTests {
    private func makeHub() -> Hub {
        Hub(
            sourceName: "replay:test.csv",
            sensors: [
                SensorDescription(name: "imu", kinds: [.accelerometer], location: "/x", rateHz: 100, mode: "replay")
            ],
            calibration: "none: no file matched", calibrated: false)
    }

    /// A connected session on `hub`.
    private func session(_ hub: Hub, maxClients: Int = 8) throws -> EmbeddedChannel {
        var policy = ServicePolicy()
        policy.maxClients = maxClients
        let settings = DaemonSettings(policy: policy, daemonUID: Int(getuid()))
        let handler = SessionHandler(hub: hub, settings: settings, maxLineLength: 256, logger: Logger(label: "test"))
        let channel = EmbeddedChannel(handler: handler)
        try channel.connect(to: SocketAddress(unixDomainSocketPath: "/tilt-test.sock")).wait()
        return channel
    }

    /// What the session has written since the last call, decoded.
    private func written(_ channel: EmbeddedChannel) throws -> [ServerMessage] {
        channel.embeddedEventLoop.run()
        var messages: [ServerMessage] = []
        while let line = try channel.readOutbound(as: WireLine.self) {
            messages.append(try #require(try ServerMessage.decode(Array(line.bytes.readableBytesView))))
        }
        return messages
    }

    private func send(_ channel: EmbeddedChannel, _ text: String) throws {
        try channel.writeInbound(LineEvent.line(ByteBuffer(string: text)))
    }

    @Test("a new session is greeted with hello, then answered line by line: status, a malformed line, a blank one")
    func greetedThenAnswered() throws {
        let hub = makeHub()
        let channel = try session(hub)
        defer { _ = try? channel.finish() }
        guard case .hello(let hello) = try #require(try written(channel).first) else {
            Issue.record("the first line is not hello")
            return
        }
        #expect(hello.protocol == WireProtocol.version)
        try send(channel, #"{"cmd":"status"}"#)
        guard case .status(let status) = try #require(try written(channel).first) else {
            Issue.record("status was not answered with status")
            return
        }
        #expect(status.source == "replay:test.csv")
        #expect(status.clients == 1)
        try send(channel, #"{"cmd":"#)
        let errors = try written(channel)
        #expect(errors.count == 1)
        guard case .error = errors.first else {
            Issue.record("a malformed line got \(errors), not an error")
            return
        }
        try send(channel, "   ")
        #expect(try written(channel).isEmpty, "a blank line is no command")
        #expect(channel.isActive, "a bad line costs an error, not the session")
    }

    @Test("an over-long line is an error naming the limit, and the session goes on")
    func overlongLine() throws {
        let channel = try session(makeHub())
        defer { _ = try? channel.finish() }
        _ = try written(channel)
        try channel.writeInbound(LineEvent.overlong(length: 300))
        guard case .error(let message) = try #require(try written(channel).first) else {
            Issue.record("no error for an over-long line")
            return
        }
        #expect(message.contains("the limit is 256"))
        try send(channel, #"{"cmd":"status"}"#)
        #expect(try written(channel).count == 1)
    }

    @Test("watch makes the session a watcher at the hub; closing the channel unregisters it")
    func watchRegistersAndCloseUnregisters() throws {
        let hub = makeHub()
        let channel = try session(hub)
        _ = try written(channel)
        try send(channel, #"{"cmd":"watch","rate":30}"#)
        _ = try written(channel)
        try send(channel, #"{"cmd":"status"}"#)
        guard case .status(let status) = try #require(try written(channel).first) else {
            Issue.record("no status")
            return
        }
        #expect(status.watchers == 1)
        #expect(status.client.rate == 30)
        _ = try channel.finish()
        let other = try session(hub)
        defer { _ = try? other.finish() }
        _ = try written(other)
        try send(other, #"{"cmd":"status"}"#)
        guard case .status(let after) = try #require(try written(other).first) else {
            Issue.record("no status")
            return
        }
        #expect(after.clients == 1 && after.watchers == 0, "the closed session is gone from the hub")
    }

    @Test("a session over max_clients is told the daemon is full, and closed")
    func fullDaemonRefuses() throws {
        let hub = makeHub()
        let first = try session(hub, maxClients: 1)
        defer { _ = try? first.finish() }
        let second = try session(hub, maxClients: 1)
        guard case .error(let message) = try #require(try written(second).first) else {
            Issue.record("the second session was not refused")
            return
        }
        #expect(message.hasPrefix("the daemon is full (limit 1 clients)"))
        second.embeddedEventLoop.advanceTime(by: .milliseconds(Int64(SessionHandler.closeGrace * 1000)))
        #expect(!second.isActive)
    }
}
