import Testing
import TiltCore

@testable import TiltDSU
@testable import TiltSensors

/// tilt's device frame against DSU's axes and units (docs/dsu.md), and DSU addresses as people write them.
@Suite struct DSUAxesTests {
    static func close(_ a: Vector3, _ b: Vector3, _ tolerance: Double = 1e-5) -> Bool {
        abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance && abs(a.z - b.z) <= tolerance
    }

    @Test("a device lying face up reads -1 g on DSU's y, as a controller lying face up does")
    func flatIsMinusOneGOnY() {
        let m = DSUAxes.motion(accel: Vector3(0, 0, standardGravity), gyro: .zero, timestamp: 7)
        #expect(m.accel == SIMD3<Float>(0, -1, 0))
        #expect(m.gyro == SIMD3<Float>(0, 0, 0))
        #expect(m.timestamp == 7)
    }

    @Test("standing on its bottom edge (top up) the device's +y is up: DSU z reads +1 g toward the player's side")
    func standingUp() {
        // Specific force +g on device y; the controller's z (toward the player) is −device y, so SDL reads −g on z
        // and DSU, SDL negated, +1 g.
        let m = DSUAxes.motion(accel: Vector3(0, standardGravity, 0), gyro: .zero, timestamp: 0)
        #expect(m.accel == SIMD3<Float>(0, 0, 1))
    }

    @Test("turning about the device's axes gives DSU pitch, yaw and roll with the table's signs, in °/s")
    func rates() {
        let w = 90 * Double.pi / 180
        // About device x (right): SDL x; DSU pitch is SDL's negated.
        #expect(DSUAxes.motion(accel: .zero, gyro: Vector3(w, 0, 0), timestamp: 0).gyro == SIMD3<Float>(-90, 0, 0))
        // About device z (up, out of the face): SDL y; DSU yaw is SDL's.
        #expect(DSUAxes.motion(accel: .zero, gyro: Vector3(0, 0, w), timestamp: 0).gyro == SIMD3<Float>(0, 90, 0))
        // About device y (away from the player): SDL −z; DSU roll is SDL's negated.
        #expect(DSUAxes.motion(accel: .zero, gyro: Vector3(0, w, 0), timestamp: 0).gyro == SIMD3<Float>(0, 0, 90))
    }

    @Test("what the server sends, the client reads back (to float precision), for motions in every direction")
    func roundTrip() {
        var random = SeededRandom(seed: 31)
        for _ in 0..<200 {
            let a = Vector3(random.uniform(-30...30), random.uniform(-30...30), random.uniform(-30...30))
            let w = Vector3(random.uniform(-20...20), random.uniform(-20...20), random.uniform(-20...20))
            let back = DSUAxes.deviceFrame(DSUAxes.motion(accel: a, gyro: w, timestamp: 1))
            #expect(Self.close(back.accel, a, 1e-4 * max(1, a.norm)))
            #expect(Self.close(back.gyro, w, 1e-4 * max(1, w.norm)))
        }
    }

    @Test("the device-to-controller mapping is a rotation, not a mirror: the frame stays right-handed")
    func properRotation() {
        // Columns: where device x, y, z land in the controller's (SDL's) frame, read off the specific force DSU sends
        // (SDL's is DSU's negated).
        func sdl(_ v: Vector3) -> Vector3 {
            let m = DSUAxes.motion(accel: v * standardGravity, gyro: .zero, timestamp: 0)
            return Vector3(-Double(m.accel.x), -Double(m.accel.y), -Double(m.accel.z))
        }
        let x = sdl(.unitX)
        let y = sdl(.unitY)
        let z = sdl(Vector3(0, 0, 1))
        #expect(Self.close(x.cross(y), z))
    }

    @Test(
        "addresses parse as HOST[:PORT][/SLOT]",
        arguments: [
            ("192.168.1.5:26760/0", "192.168.1.5", 26760, UInt8?(0)),
            ("phone.local", "phone.local", 26760, nil),
            ("[::1]:5000/3", "::1", 5000, 3),
            ("[fe80::1]", "fe80::1", 26760, nil),
            (" localhost:1 ", "localhost", 1, nil),
        ])
    func parses(text: String, host: String, port: Int, slot: UInt8?) throws {
        let endpoint = try DSUEndpoint.parse(text)
        #expect(endpoint == DSUEndpoint(host: host, port: port, slot: slot))
    }

    @Test(
        "bad addresses say what is wrong",
        arguments: [
            ("host:70000", "not a port"), ("host/4", "slots are 0 to 3"), ("::1", "in brackets"),
            ("[::1", "never closes"), (":26760", "names no host"), ("host:0", "ports are 1 to 65535"),
        ])
    func refuses(text: String, says: String) {
        #expect {
            _ = try DSUEndpoint.parse(text)
        } throws: { error in
            (error as? DSUAddressError)?.kind == .syntax && "\(error)".contains(says)
        }
    }

    @Test("a server's address takes no slot, and port 0 (any free one)")
    func serverAddress() throws {
        #expect(throws: DSUAddressError.self) { try DSUEndpoint.parse("127.0.0.1:26760/0", allowsSlot: false) }
        #expect(try DSUEndpoint.parse("127.0.0.1:0", allowsSlot: false).port == 0)
        #expect(try DSUEndpoint.parse("127.0.0.1", allowsSlot: false).isLoopback)
        #expect(try !DSUEndpoint.parse("0.0.0.0", allowsSlot: false).isLoopback)
        #expect(DSUEndpoint(host: "::1", port: 9).description == "[::1]:9")
    }
}

/// The DSU client's side, without a socket: what it asks when, and what packets become.
@Suite struct DSUClientTests {
    static let endpoint = DSUEndpoint(host: "127.0.0.1", port: 26760)

    static func data(slot: UInt8 = 0, state: UInt8 = 2, packet: UInt32, micros: UInt64, accel: SIMD3<Float>) -> [UInt8]
    {
        DSUPacket.encode(
            .data(
                DSUPacket.Slot(slot: slot, state: state), packet: packet,
                motion: DSUPacket.Motion(timestamp: micros, accel: accel, gyro: SIMD3(0, 0, 0))),
            from: .server, id: 5)
    }

    static func samples(_ events: [MotionSourceEvent]) -> [MotionSample] {
        events.compactMap { if case .sample(let s) = $0 { s } else { nil } }
    }

    @Test(
        "without a slot it asks which are connected, then subscribes to the first connected one, and renews each second"
    )
    func discoversTheSlotAndRenews() throws {
        var client = DSUClient(configuration: .init(endpoint: Self.endpoint), now: 0)
        let first = client.requests(now: 0)
        #expect(try first.map { try DSUPacket.decode($0).message } == [.infoRequest(slots: [0, 1, 2, 3])])
        #expect(client.requests(now: 0.5).isEmpty)
        _ = client.received(DSUPacket.encode(.info(.empty(0)), from: .server, id: 5), at: 0.1)
        _ = client.received(DSUPacket.encode(.info(DSUPacket.Slot(slot: 2)), from: .server, id: 5), at: 0.1)
        #expect(client.slot == 2)
        #expect(try client.requests(now: 0.2).map { try DSUPacket.decode($0).message } == [.dataRequest(.slot(2))])
        #expect(client.requests(now: 0.9).isEmpty)
        #expect(try client.requests(now: 1.3).map { try DSUPacket.decode($0).message } == [.dataRequest(.slot(2))])
    }

    @Test("data becomes device-frame samples on this machine's clock, from the server's microseconds")
    func samplesFromData() {
        var client = DSUClient(configuration: .init(endpoint: DSUEndpoint(host: "h", slot: 0)), now: 100)
        var events = client.received(Self.data(packet: 0, micros: 5_000_000, accel: SIMD3(0, -1, 0)), at: 100.01)
        events += client.received(Self.data(packet: 1, micros: 5_004_000, accel: SIMD3(0, -1, 0)), at: 100.02)
        // Another slot's data is not this client's.
        events += client.received(Self.data(slot: 1, packet: 9, micros: 5_006_000, accel: SIMD3(1, 0, 0)), at: 100.02)
        #expect(events.first == .sensor(.active, reason: "DSU server h:26760/0, slot 0"))
        let samples = Self.samples(events)
        #expect(samples.count == 2)
        #expect(abs(samples[0].time - 100.01) < 1e-9)
        #expect(abs(samples[1].time - samples[0].time - 0.004) < 1e-9)
        #expect(abs(samples[0].accel.z - standardGravity) < 1e-5)
    }

    @Test("a server that goes quiet is lost once; when it sends again the sensor is active after a gap")
    func quietServerIsLostAndComesBack() {
        var client = DSUClient(configuration: .init(endpoint: DSUEndpoint(host: "h", slot: 0)), now: 0)
        _ = client.received(Self.data(packet: 0, micros: 1_000_000, accel: SIMD3(0, -1, 0)), at: 0.1)
        #expect(client.received(nil, at: 0.6).isEmpty)
        let lost = client.received(nil, at: 1.2)
        #expect(lost.count == 1)
        guard case .sensor(.lost, let reason) = lost.first else {
            Issue.record("expected lost, got \(lost)")
            return
        }
        #expect(reason.contains("stopped sending"))
        #expect(client.received(nil, at: 3).isEmpty)
        let back = client.received(Self.data(packet: 1, micros: 4_000_000, accel: SIMD3(0, -1, 0)), at: 4)
        #expect(back.first == .sensor(.active, reason: "DSU server h:26760/0, slot 0"))
        #expect(back.contains { if case .gap = $0 { true } else { false } })
        #expect(Self.samples(back).count == 1)
        #expect(abs(Self.samples(back)[0].time - 4) < 1e-9)
    }

    @Test("a server that never answers is reported lost once, saying so")
    func neverAnswers() {
        var client = DSUClient(configuration: .init(endpoint: Self.endpoint), now: 0)
        #expect(client.received(nil, at: 0.5).isEmpty)
        let events = client.received(nil, at: 1.5) + client.received(nil, at: 5)
        #expect(events.count == 1)
        if case .sensor(.lost, let reason) = events.first {
            #expect(reason.contains("does not answer"))
        } else {
            Issue.record("expected lost, got \(events)")
        }
    }

    @Test("a damaged packet is a rejection, and the client goes on")
    func damagedPacket() {
        var client = DSUClient(configuration: .init(endpoint: DSUEndpoint(host: "h", slot: 0)), now: 0)
        var bytes = Self.data(packet: 0, micros: 1, accel: SIMD3(0, -1, 0))
        bytes[40] ^= 0xFF
        let events = client.received(bytes, at: 0.1)
        #expect(events.count == 1)
        if case .rejected(let reason) = events.first {
            #expect(reason.contains("CRC"))
        } else {
            Issue.record("\(events)")
        }
        #expect(
            Self.samples(client.received(Self.data(packet: 1, micros: 2, accel: SIMD3(0, -1, 0)), at: 0.2)).count == 1)
    }
}
