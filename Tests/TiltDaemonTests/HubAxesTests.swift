import NIOCore
import Synchronization
import Testing
import TiltCore
import TiltWire

@testable import TiltDaemon

/// A client that keeps the lines it is handed, as they are (to see which share their bytes).
private final class KeepingSink: ClientSink {
    let lines = Mutex<[WireLine]>([])
    func deliver(_ line: WireLine, kind: Delivery) -> Bool {
        lines.withLock { $0.append(line) }
        return true
    }
    func close() async {}

    func frames() throws -> [AttitudeFrame] {
        try lines.withLock { $0 }.compactMap {
            if case .attitude(let f)? = try ServerMessage.decode(Array($0.json.utf8)) { f } else { nil }
        }
    }
}

/// The hub's side of issue 16: frames turned per client, encoded once per rotation, and routed by attitude.
@Suite struct HubAxesTests {
    private func makeHub(main: AttitudeReference = .magnetic) -> Hub {
        Hub(sourceName: "replay:t", sensors: [], calibration: "none: test", calibrated: false, mainReference: main)
    }

    private func frame(_ seq: UInt64, reference: AttitudeReference) -> AttitudeFrame {
        var f = AttitudeFrame(
            seq: seq, time: Double(seq) / 100, quaternion: .identity, gravity: Vector3(1, 2, -9.5),
            rotationRate: Vector3(0.1, 0.2, 0.3), userAcceleration: .zero, tilt: .init(x: 0.1, y: 0.2),
            flags: .init(), source: "replay:t")
        f.reference = reference
        return f
    }

    /// Two registered clients: their sinks and ids.
    private func twoClients(of hub: Hub) throws -> (KeepingSink, UInt64, KeepingSink, UInt64) {
        let first = KeepingSink()
        let second = KeepingSink()
        return (first, try #require(hub.register(first)), second, try #require(hub.register(second)))
    }

    /// The address of a line's bytes: lines that share it were encoded once.
    private func storage(_ line: WireLine) -> UnsafeRawPointer? {
        line.bytes.withUnsafeReadableBytes { UnsafeRawPointer($0.baseAddress) }
    }

    @Test("each client gets its rotation; clients at the same rotation share one encoding")
    func oneEncodingPerRotation() throws {
        let hub = makeHub()
        let rotations: [ScreenRotation] = [.normal, .left, .left, .left, .right]
        let sinks = rotations.map { _ in KeepingSink() }
        for (sink, rotation) in zip(sinks, rotations) {
            let id = try #require(hub.register(sink))
            #expect(hub.setWatch(id: id, enable: true, rate: 1000, raw: false, rotation: rotation) == nil)
        }
        hub.publish(frame(1, reference: .magnetic), gyroBias: .zero, now: 1)
        for (sink, rotation) in zip(sinks, rotations) {
            let got = try #require(try sink.frames().first)
            #expect(got.axes == rotation && got.gravity == rotation.picture(Vector3(1, 2, -9.5)))
        }
        let lines = sinks.map { $0.lines.withLock { $0[0] } }
        #expect(storage(lines[1]) == storage(lines[2]) && storage(lines[2]) == storage(lines[3]))
        #expect(storage(lines[0]) != storage(lines[1]) && storage(lines[1]) != storage(lines[4]))
    }

    @Test("6D frames go only to the clients that asked; the demand says when the 6D filter is needed")
    func gameFramesAreRouted() async throws {
        let hub = makeHub()
        let (nine, n, six, s) = try twoClients(of: hub)
        hub.setWatch(id: n, enable: true, rate: 1000, raw: false)
        hub.setWatch(id: s, enable: true, rate: 1000, raw: false, magnetometer: false)
        var demands = hub.demands.makeAsyncIterator()
        #expect(await demands.next() == Demand(active: true, rate: 1000, magnetic: true, game: true))
        hub.publish(frame(1, reference: .magnetic), gyroBias: .zero, now: 1)
        hub.publish(frame(1, reference: .game), gyroBias: .zero, now: 1)
        #expect(try nine.frames().map(\.reference) == [.magnetic])
        #expect(try six.frames().map(\.reference) == [.game])
        // Only the main filter's frames count as the latest (poll, status).
        #expect(hub.status(id: n, errors: 0, peer: nil).samples == 1)
        #expect(hub.status(id: s, errors: 0, peer: nil).client.magnetometer == false)
        hub.setWatch(id: s, enable: false, rate: nil, raw: false)
        #expect(
            await demands.next() == Demand(active: true, rate: 1000, magnetic: true, game: false),
            "the 6D filter is not needed")
    }

    @Test("a poll is answered in the client's axes too")
    func pollInTheClientsAxes() throws {
        let hub = makeHub()
        let (_, w, _, p) = try twoClients(of: hub)
        hub.setWatch(id: w, enable: true, rate: 30, raw: false)
        hub.setWatch(id: p, enable: true, rate: 30, raw: false, rotation: .inverted)
        hub.setWatch(id: p, enable: false, rate: nil, raw: false, rotation: .inverted)
        hub.setSensorState(.active, reason: "test")
        hub.publish(frame(1, reference: .magnetic), gyroBias: .zero, now: 1)
        let answer = try #require(hub.poll(id: p))
        #expect(answer.axes == .inverted && answer.tilt == .init(x: -0.1, y: -0.2))
    }

    @Test("9D asked of a 6D daemon is refused and changes nothing; 6D asked of it is the main filter")
    func nineDWithoutAMagnetometer() throws {
        let hub = makeHub(main: .game)
        let sink = KeepingSink()
        let id = try #require(hub.register(sink))
        let refusal = try #require(hub.setWatch(id: id, enable: true, rate: 30, raw: false, magnetometer: true))
        #expect(refusal.hasPrefix("no magnetometer"))
        #expect(!hub.status(id: id, errors: 0, peer: nil).client.watching)
        #expect(hub.setWatch(id: id, enable: true, rate: 1000, raw: false, magnetometer: false) == nil)
        hub.publish(frame(1, reference: .game), gyroBias: .zero, now: 1)
        #expect(try sink.frames().map(\.reference) == [.game])
    }
}
