import Testing
import TiltCore
import TiltSensors
import TiltWire

@testable import TiltDaemon

/// tiltd's DSU server without the socket: what it answers, who it sends to, and what it refuses (issue 31).
@Suite struct DSUServerLogicTests {
    typealias Logic = DSUServerLogic<String>

    static func request(_ message: DSUPacket.Message, id: UInt32 = 77) -> [UInt8] {
        DSUPacket.encode(message, from: .client, id: id)
    }

    static func decoded(_ replies: [[UInt8]]) throws -> [DSUPacket.Message] {
        try replies.map { try DSUPacket.decode($0).message }
    }

    @Test("answers the version, and describes slot 0 as connected with a gyroscope and the other slots as empty")
    func answersVersionAndSlots() throws {
        var logic = Logic(id: 9)
        let version = logic.handle(Self.request(.versionRequest), from: "a", host: "h", now: 0)
        #expect(try Self.decoded(version) == [.versionResponse(1001)])
        #expect(try DSUPacket.decode(version[0]).sender == .server)
        #expect(try DSUPacket.decode(version[0]).id == 9)
        let info = logic.handle(Self.request(.infoRequest(slots: [0, 3, 0, 1])), from: "a", host: "h", now: 0)
        #expect(try Self.decoded(info) == [.info(Logic.slot), .info(.empty(3)), .info(.empty(1))])
        #expect(Logic.slot.state == 2 && Logic.slot.model == 2)
        #expect(logic.received == 2)
    }

    @Test("a data request for slot 0, all slots or tiltd's MAC subscribes; another slot's does not")
    func subscriptions() {
        var logic = Logic()
        for (peer, subscription) in [
            ("all", DSUPacket.Subscription.all), ("slot0", .slot(0)), ("mac", .mac(Logic.slot.mac)),
            ("slot1", .slot(1)), ("othermac", .mac([1, 2, 3, 4, 5, 6])),
        ] {
            #expect(logic.handle(Self.request(.dataRequest(subscription)), from: peer, host: peer, now: 0).isEmpty)
        }
        #expect(Set(logic.subscribers.keys) == ["all", "slot0", "mac"])
    }

    @Test("each fused sample is one packet, numbered, to every subscriber; a subscription lapses 5 s after its request")
    func dataPacketsAndExpiry() throws {
        var logic = Logic()
        let none = logic.dataPacket(accel: .zero, rate: .zero, time: 1, now: 0)
        #expect(none == nil)
        _ = logic.handle(Self.request(.dataRequest(.all)), from: "a", host: "h1", now: 0)
        _ = logic.handle(Self.request(.dataRequest(.slot(0))), from: "b", host: "h2", now: 3)
        let firstPacket = logic.dataPacket(accel: Vector3(0, 0, standardGravity), rate: .zero, time: 1.5, now: 4)
        let first = try #require(firstPacket)
        #expect(Set(first.peers) == ["a", "b"])
        guard case .data(let slot, let number, let motion) = try DSUPacket.decode(first.packet).message else {
            Issue.record("not a data packet")
            return
        }
        #expect(slot == Logic.slot && number == 0)
        #expect(motion.timestamp == 1_500_000)
        #expect(motion.accel == SIMD3<Float>(0, -1, 0))
        // "a" asked at 0: gone after 5 s; "b" asked at 3: still there.
        let secondPacket = logic.dataPacket(accel: .zero, rate: .zero, time: 1.6, now: 5.5)
        let second = try #require(secondPacket)
        #expect(second.peers == ["b"])
        if case .data(_, let number, _) = try DSUPacket.decode(second.packet).message { #expect(number == 1) }
        #expect(logic.sent == 3)
        logic.expire(now: 8.5)
        #expect(logic.subscribers.isEmpty)
    }

    @Test("truncated, foreign, other-version, wrong-CRC and unknown datagrams are dropped and counted by reason")
    func hostileDatagramsAreCounted() {
        var logic = Logic()
        var crc = Self.request(.versionRequest)
        crc[19] ^= 1
        var version = Self.request(.versionRequest)
        version[4] = 0xEA
        // An unknown type under a right CRC.
        var unknown = Self.request(.versionRequest)
        unknown[18] = 0x20
        unknown.replaceSubrange(8..<12, with: [0, 0, 0, 0])
        let sum = DSUPacket.crc32(unknown)
        unknown.replaceSubrange(8..<12, with: (0..<4).map { UInt8(truncatingIfNeeded: sum >> (8 * UInt32($0))) })
        let hostile: [[UInt8]] = [
            [], [0x44, 0x53], Array(Self.request(.infoRequest(slots: [0])).prefix(21)),
            Array("GET / HTTP/1.1\r\nHost: tilt\r\n\r\n".utf8), crc, version, unknown,
            DSUPacket.encode(.versionResponse(1001), from: .server, id: 1),
        ]
        for datagram in hostile {
            #expect(logic.handle(datagram, from: "x", host: "x", now: 0).isEmpty)
        }
        #expect(logic.received == 0)
        let report = logic.report(listen: "127.0.0.1:1")
        #expect(report.dropped["truncated"] == 3)
        #expect(report.dropped["badMagic"] == 1)
        #expect(report.dropped["crc"] == 1)
        #expect(report.dropped["version"] == 1)
        #expect(report.dropped["unknownType"] == 1)
        #expect(report.dropped["malformed"] == 1)
        #expect(report.dropped.values.reduce(0, +) == UInt64(hostile.count))
    }

    @Test("a flood from one host is limited to its rate while another host is still answered")
    func floodIsLimitedPerHost() {
        var logic = Logic()
        var answered = 0
        // 1000 requests in one second from one host: its burst and its rate pass, the rest are dropped.
        for i in 0..<1000 {
            let now = Double(i) / 1000
            answered += logic.handle(Self.request(.versionRequest), from: "f", host: "flooder", now: now).count
            if i % 100 == 0 {
                #expect(logic.handle(Self.request(.versionRequest), from: "g", host: "good", now: now).count == 1)
            }
        }
        #expect(answered <= Int(Logic.hostBurst + Logic.hostRate) + 1)
        #expect(answered >= Int(Logic.hostBurst))
        #expect(logic.report(listen: "").dropped["rateLimited"] == UInt64(1000 - answered))
    }

    @Test("subscribers beyond the limit are refused and counted; one that renews keeps its place")
    func subscriberLimit() {
        var logic = Logic()
        for n in 0..<Logic.maxSubscribers {
            _ = logic.handle(Self.request(.dataRequest(.all)), from: "p\(n)", host: "h\(n)", now: 0)
        }
        _ = logic.handle(Self.request(.dataRequest(.all)), from: "late", host: "late", now: 0)
        _ = logic.handle(Self.request(.dataRequest(.all)), from: "p0", host: "h0", now: 1)
        #expect(logic.subscribers.count == Logic.maxSubscribers)
        #expect(logic.subscribers["late"] == nil)
        #expect(logic.subscribers["p0"] == 1)
        #expect(logic.report(listen: "").dropped["full"] == 1)
    }
}
