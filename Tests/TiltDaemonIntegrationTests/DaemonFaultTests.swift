import Foundation
import Synchronization
import Testing
import TiltClient
import TiltCore
import TiltTestKit
import TiltWire

#if canImport(Glibc)
    import Glibc
#endif

/// Frames a watcher received, with its monotonic receive times; filled on a reader thread.
private final class ReceivedFrames: Sendable {
    private let state = Mutex<(times: [Double], seqs: [Int])>(([], []))

    func append(time: Double, seq: Int) {
        state.withLock {
            $0.times.append(time)
            $0.seqs.append(seq)
        }
    }

    var times: [Double] { state.withLock { $0.times } }
    var seqs: [Int] { state.withLock { $0.seqs } }
}

/// Faults, end to end against the real `tiltd` on a real socket: clients that die, half-close, or outlive the daemon.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct DaemonFaultTests {
    private func status(_ client: LineSocket) throws -> [String: Any] { try #require(try client.status()) }

    /// Reads frames until `end`, noting when each arrived.
    private func collectFrames(_ socket: LineSocket, until end: Deadline, into box: ReceivedFrames) {
        while !end.hasPassed, let line = socket.readLine(timeout: end.remaining) {
            guard let object = LineSocket.parse(line), object["class"] as? String == "attitude" else { continue }
            box.append(time: monotonicSeconds(), seq: object["seq"] as? Int ?? -1)
        }
    }

    @Test("a watcher killed with SIGKILL mid-stream leaves the others served without a gap, and is forgotten")
    func killedWatcher() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = DaemonProcess.temporarySocket(in: dir)
        let daemon = try DaemonProcess.replaying(["--loop"], in: dir)
        defer { daemon.stop() }
        let (steady, _) = try daemon.greetedClient()

        let victim = try BackgroundProcess(
            TestPaths.executable("tilt"), ["watch", "--json", "--rate", "1000", "--socket", path])
        #expect(eventually { victim.stdoutLines.count >= 50 }, "tilt watch prints frames: \(victim.stderr)")
        #expect(try status(steady)["clients"] as? Int == 2)

        try steady.send(#"{"cmd":"watch","rate":50}"#)
        let received = ReceivedFrames()
        let end = Deadline(seconds: 3)
        let reader = DispatchGroup()
        DispatchQueue.global().async(group: reader) { self.collectFrames(steady, until: end, into: received) }
        // Kill the victim while both stream: it is mid-read (1000 Hz asked, the daemon's whole rate granted).
        #expect(eventually { received.times.count >= 25 })
        let printedBefore = victim.stdoutLines.count
        #expect(victim.kill(SIGKILL))
        let killedAt = monotonicSeconds()
        reader.wait()

        #expect(printedBefore >= 50)
        let after = received.times.filter { $0 > killedAt }
        #expect(after.count >= 40, "the other watcher keeps getting frames after the kill: \(after.count)")
        let gaps = zip(received.times.dropFirst(), received.times).map { $0 - $1 }
        let worst = gaps.max() ?? 0
        #expect(worst < 0.5, "50 Hz watcher: longest pause \(worst) s around the kill")
        #expect(zip(received.seqs.dropFirst(), received.seqs).allSatisfy { $0 > $1 })
        // The daemon notices the dead client and drops it from its count.
        #expect(try eventually { try status(steady)["clients"] as? Int == 1 }, "the killed client is unregistered")
        #expect(!daemon.log.contains("Fatal error"))
    }

    @Test(
        "a client that half-closes after a command gets its answer, then the daemon closes", arguments: [true, false])
    func halfClosedRequest(newline: Bool) throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let daemon = try DaemonProcess.replaying(in: dir)
        defer { daemon.stop() }
        let (observer, _) = try daemon.greetedClient()

        let (client, _) = try daemon.greetedClient()
        // The last line counts even without its newline.
        try client.sendRaw(Array(#"{"cmd":"status"}"#.utf8) + (newline ? [UInt8(ascii: "\n")] : []))
        client.shutdownWrite()
        let report = try #require(client.read(class: "status"), "a half-closed client still gets its answer")
        #expect(report["clients"] as? Int == 2)
        #expect(client.waitForClose(), "with nothing more to send, the daemon closes the connection")
        #expect(try eventually { try status(observer)["clients"] as? Int == 1 })
    }

    @Test("a watcher that half-closes keeps getting frames until it closes")
    func halfClosedWatcher() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let daemon = try DaemonProcess.replaying(["--loop"], in: dir)
        defer { daemon.stop() }
        let (observer, _) = try daemon.greetedClient()

        var watcher: LineSocket? = try daemon.connect()
        try watcher!.send(#"{"cmd":"watch","rate":50}"#)
        watcher!.shutdownWrite()
        let received = ReceivedFrames()
        collectFrames(watcher!, until: Deadline(seconds: 1.5), into: received)
        #expect(received.times.count >= 30, "50 Hz for 1.5 s after the half-close gave \(received.times.count)")
        let report = try status(observer)
        #expect(report["clients"] as? Int == 2 && report["watchers"] as? Int == 1)
        watcher = nil  // closes the socket
        #expect(try eventually { try status(observer)["clients"] as? Int == 1 }, "the closed watcher is forgotten")
        #expect(
            try eventually { try status(observer)["sensor"] as? String == "idle" },
            "and the sensor stops with nobody watching")
    }

    /// Events a subscriber reported, collected by a consuming task.
    private final class EventLog: Sendable {
        let events = Mutex<[TiltSubscriber.Event]>([])
        func count(_ match: (TiltSubscriber.Event) -> Bool) -> Int { events.withLock { $0.filter(match).count } }
    }

    @Test("TiltSubscriber reconnects after tiltd restarts on the same socket, and its commands still work")
    func subscriberSurvivesRestart() async throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = DaemonProcess.temporarySocket(in: dir)
        var daemon = try DaemonProcess.replaying(["--loop"], in: dir)
        defer { daemon.stop() }

        let subscriber = TiltSubscriber(
            configuration: .init(
                socketPath: path, rate: 50, backoff: Backoff(initial: .milliseconds(50), maximum: .milliseconds(400))))
        let log = EventLog()
        let consumer = Task {
            for await event in subscriber.events() { log.events.withLock { $0.append(event) } }
        }
        defer {
            subscriber.close()
            consumer.cancel()
        }
        func frames() -> Int { log.count { if case .message(.attitude) = $0 { true } else { false } } }
        func connects() -> Int { log.count { if case .connected = $0 { true } else { false } } }
        func statuses() -> Int { log.count { if case .message(.status) = $0 { true } else { false } } }

        #expect(await eventually { () async in frames() >= 10 }, "frames from the first daemon")
        #expect(daemon.stop() == 0)
        #expect(await eventually { () async in log.count { if case .disconnected = $0 { true } else { false } } >= 1 })
        let framesBefore = frames()

        daemon = try DaemonProcess.replaying(["--loop"], in: dir)
        #expect(await eventually { () async in connects() >= 2 }, "reconnected to the new daemon")
        #expect(await eventually { () async in frames() >= framesBefore + 10 }, "frames from the new daemon")
        subscriber.send(.status)
        #expect(await eventually { () async in statuses() >= 1 }, "a command sent after the reconnection is answered")
    }

    @Test("tilt watch keeps printing frames across a tiltd restart")
    func watchCommandSurvivesRestart() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = DaemonProcess.temporarySocket(in: dir)
        var daemon = try DaemonProcess.replaying(["--loop"], in: dir)
        defer { daemon.stop() }
        let watch = try BackgroundProcess(
            TestPaths.executable("tilt"), ["watch", "--json", "--rate", "50", "--socket", path])
        #expect(eventually { watch.stdoutLines.count >= 10 }, "tilt watch prints frames: \(watch.stderr)")

        #expect(daemon.stop() == 0)
        #expect(eventually { watch.stderr.contains("disconnected") })
        let before = watch.stdoutLines.count
        daemon = try DaemonProcess.replaying(["--loop"], in: dir)
        #expect(eventually(timeout: 15) { watch.stdoutLines.count >= before + 10 }, "frames after the restart")
        #expect(watch.process.isRunning, "tilt watch is still running")
        // The new frames come from the new daemon: its sequence numbers start again.
        let seqs = watch.stdoutLines.dropFirst(before).compactMap { LineSocket.parse($0)?["seq"] as? Int }
        #expect((seqs.first ?? .max) < 1000, "first frame after restart has seq \(seqs.first ?? -1)")
        #expect(watch.stderr.components(separatedBy: "connected to tiltd").count - 1 == 2, "\(watch.stderr)")
    }
}
