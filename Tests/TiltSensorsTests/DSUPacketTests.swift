import Testing
import TiltCore
import TiltSensors

/// The DSU (cemuhook) codec against packets laid out byte by byte here, with a CRC-32 computed here bit by bit.
@Suite struct DSUPacketTests {
    /// CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320), one bit at a time: independent of zlib's tables.
    static func crc(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            c ^= UInt32(b)
            for _ in 0..<8 { c = c & 1 != 0 ? (c >> 1) ^ 0xEDB8_8320 : c >> 1 }
        }
        return ~c
    }

    static func le(_ v: UInt64, _ n: Int) -> [UInt8] {
        (0..<n).map { UInt8(truncatingIfNeeded: v >> (8 * UInt64($0))) }
    }

    /// A packet as the protocol lays it out: magic, version 1001, payload length, CRC (of the packet with the field
    /// zeroed), id, payload.
    static func packet(_ magic: String, id: UInt32, _ payload: [UInt8]) -> [UInt8] {
        var p = Array(magic.utf8) + [0xE9, 0x03] + le(UInt64(payload.count), 2) + [0, 0, 0, 0] + le(UInt64(id), 4)
        p += payload
        let c = crc(p)
        p.replaceSubrange(8..<12, with: le(UInt64(c), 4))
        return p
    }

    static let slot = DSUPacket.Slot(slot: 1, state: 2, model: 2, connection: 1, mac: [1, 2, 3, 4, 5, 6], battery: 5)
    static let motion = DSUPacket.Motion(
        timestamp: 0x0102_0304_0506_0708, accel: SIMD3(0.25, -1, 0.5), gyro: SIMD3(90, -45.5, 1e-3))

    static func floats(_ values: [Float]) -> [UInt8] { values.flatMap { le(UInt64($0.bitPattern), 4) } }

    static let cases: [(String, DSUPacket.Message, DSUPacket.Sender, [UInt8])] = [
        ("version request", .versionRequest, .client, packet("DSUC", id: 0xA1B2_C3D4, [0, 0, 0x10, 0])),
        ("version", .versionResponse(1001), .server, packet("DSUS", id: 0xA1B2_C3D4, [0, 0, 0x10, 0, 0xE9, 0x03])),
        (
            "slot request", .infoRequest(slots: [0, 3]), .client,
            packet("DSUC", id: 0xA1B2_C3D4, [1, 0, 0x10, 0, 2, 0, 0, 0, 0, 3])
        ),
        (
            "slot info", .info(slot), .server,
            packet("DSUS", id: 0xA1B2_C3D4, [1, 0, 0x10, 0, 1, 2, 2, 1, 1, 2, 3, 4, 5, 6, 5, 0])
        ),
        ("data for all", .dataRequest(.all), .client, packet("DSUC", id: 0xA1B2_C3D4, [2, 0, 0x10, 0] + [0] * 8)),
        (
            "data for slot 2", .dataRequest(.slot(2)), .client,
            packet("DSUC", id: 0xA1B2_C3D4, [2, 0, 0x10, 0, 1, 2, 0, 0, 0, 0, 0, 0])
        ),
        (
            "data for a MAC", .dataRequest(.mac([9, 8, 7, 6, 5, 4])), .client,
            packet("DSUC", id: 0xA1B2_C3D4, [2, 0, 0x10, 0, 2, 0, 9, 8, 7, 6, 5, 4])
        ),
        (
            "data", .data(slot, packet: 0x0A0B_0C0D, motion: motion), .server,
            packet(
                "DSUS", id: 0xA1B2_C3D4,
                [2, 0, 0x10, 0, 1, 2, 2, 1, 1, 2, 3, 4, 5, 6, 5] + [1] + [0x0D, 0x0C, 0x0B, 0x0A]
                    + [0, 0, 0, 0, 128, 128, 128, 128] + [0] * 24 + [8, 7, 6, 5, 4, 3, 2, 1]
                    + floats([0.25, -1, 0.5, 90, -45.5, 1e-3]))
        ),
    ]

    @Test("every message encodes byte for byte as laid out, and decodes back", arguments: cases.indices)
    func byteExact(_ index: Int) throws {
        let (name, message, sender, bytes) = Self.cases[index]
        #expect(DSUPacket.encode(message, from: sender, id: 0xA1B2_C3D4) == bytes, "\(name)")
        let decoded = try DSUPacket.decode(bytes)
        #expect(decoded.message == message && decoded.sender == sender && decoded.id == 0xA1B2_C3D4, "\(name)")
        #expect(
            DSUPacket.crc32(Array(bytes[0..<8]) + [0, 0, 0, 0] + Array(bytes[12...]))
                == Self.crc(
                    Array(bytes[0..<8]) + [0, 0, 0, 0] + Array(bytes[12...])))
    }

    @Test("a data packet is 100 bytes")
    func dataSize() {
        #expect(DSUPacket.encode(.data(Self.slot, packet: 1, motion: Self.motion), from: .server, id: 1).count == 100)
    }

    private func refusal(_ bytes: [UInt8]) -> DSUErrorKind? {
        do {
            _ = try DSUPacket.decode(bytes)
            return nil
        } catch {
            return error.kind
        }
    }

    @Test("every truncation is refused as truncated; bytes past the length are cut off")
    func truncation() throws {
        for (name, _, _, bytes) in Self.cases {
            for n in 0..<bytes.count {
                #expect(refusal(Array(bytes.prefix(n))) == .truncated, "\(name) cut to \(n) bytes")
            }
            let longer = try DSUPacket.decode(bytes + [0xFF, 0xFF, 0xFF])
            #expect(longer == (try DSUPacket.decode(bytes)), "\(name) with bytes after its length")
        }
    }

    @Test("a wrong CRC, magic, version or type is refused, each by name")
    func refusals() {
        let good = Self.cases[7].3
        var flipped = good
        flipped[40] ^= 0x01
        #expect(refusal(flipped) == .crc)
        var magic = good
        magic[3] = UInt8(ascii: "X")
        #expect(refusal(magic) == .badMagic)
        // Version 1000 and an unknown type (the unofficial motor message), each with a right CRC.
        let old = Array("DSUC".utf8) + [0xE8, 0x03, 4, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0x10, 0]
        #expect(refusal(Self.recrc(old)) == .version)
        #expect(refusal(Self.packet("DSUC", id: 1, [1, 0, 0x11, 0])) == .unknownType)
        // A slot request for more slots than there are.
        #expect(refusal(Self.packet("DSUC", id: 1, [1, 0, 0x10, 0, 9, 0, 0, 0])) == .malformed)
        #expect(refusal(Self.packet("DSUC", id: 1, [1, 0, 0x10, 0, 0xFF, 0xFF, 0xFF, 0xFF])) == .malformed)
    }

    static func recrc(_ bytes: [UInt8]) -> [UInt8] {
        var p = bytes
        p.replaceSubrange(8..<12, with: [0, 0, 0, 0])
        p.replaceSubrange(8..<12, with: le(UInt64(crc(p)), 4))
        return p
    }
}

extension Array where Element == UInt8 {
    fileprivate static func * (value: [UInt8], count: Int) -> [UInt8] {
        Array((0..<count).flatMap { _ in value })
    }
}
