import CZlib
import TiltCore

/// The cemuhook ("DSU", DualShock UDP) protocol, version 1001: how phones, Joy-Con and Steam Deck tools hand motion to
/// emulators (Cemu, Dolphin, Citra, Ryujinx, RPCS3) over UDP, port 26760 by default (issue 31).
///
/// Every packet is a 16-byte header and a payload, little-endian: the magic `DSUS` (from a server) or `DSUC` (from a
/// client), the protocol version (1001), the payload's length, a CRC-32 (IEEE, zlib's) of the whole packet computed
/// with its own field zeroed, and the sender's id (random per run). The payload starts with the message type. The
/// three messages both sides use are the version, the controller (slot) information and the controller data; a
/// server answers each request with the same type. Other types (the unofficial motor messages) are refused as
/// unknown.
package enum DSUPacket {
    /// The one protocol version there is.
    package static let version: UInt16 = 1001
    /// The port servers listen on unless told otherwise.
    package static let defaultPort = 26760
    /// Bytes before the payload.
    package static let headerSize = 16
    /// Slots a server has: 0 … 3.
    package static let slotCount = 4
    /// The size of a controller-data packet, header included.
    package static let dataPacketSize = 100

    /// Who sent a packet.
    package enum Sender: Sendable, Hashable {
        /// `DSUS`.
        case server
        /// `DSUC`.
        case client

        var magic: [UInt8] { Array((self == .server ? "DSUS" : "DSUC").utf8) }
    }

    /// The message types.
    package enum MessageType: UInt32, Sendable {
        case version = 0x10_0000
        case controllerInfo = 0x10_0001
        case controllerData = 0x10_0002
    }

    /// A slot's description, the start of both the information and the data messages.
    package struct Slot: Sendable, Hashable {
        /// 0 … 3.
        package var slot: UInt8
        /// 0 not connected, 1 reserved, 2 connected.
        package var state: UInt8
        /// 0 not applicable, 1 no or partial gyroscope, 2 full gyroscope.
        package var model: UInt8
        /// 0 not applicable, 1 USB, 2 Bluetooth.
        package var connection: UInt8
        /// Six bytes.
        package var mac: [UInt8]
        /// 0 not applicable, 1 dying … 5 full, 0xEE charging, 0xEF charged.
        package var battery: UInt8

        package init(
            slot: UInt8, state: UInt8 = 2, model: UInt8 = 2, connection: UInt8 = 0, mac: [UInt8] = [0, 0, 0, 0, 0, 0],
            battery: UInt8 = 0
        ) {
            self.slot = slot
            self.state = state
            self.model = model
            self.connection = connection
            self.mac = Array((mac + [0, 0, 0, 0, 0, 0]).prefix(6))
            self.battery = battery
        }

        /// A slot with nothing in it.
        package static func empty(_ slot: UInt8) -> Slot {
            Slot(slot: slot, state: 0, model: 0, connection: 0)
        }
    }

    /// Motion in the protocol's axes and units, with its time.
    package struct Motion: Sendable, Hashable {
        /// When the sample was taken, microseconds (any origin; only differences count).
        package var timestamp: UInt64
        /// Accelerometer x, y, z, in g.
        package var accel: SIMD3<Float>
        /// Gyroscope pitch, yaw, roll, in degrees per second.
        package var gyro: SIMD3<Float>

        package init(timestamp: UInt64, accel: SIMD3<Float>, gyro: SIMD3<Float>) {
            self.timestamp = timestamp
            self.accel = accel
            self.gyro = gyro
        }
    }

    /// What a client asks data for.
    package enum Subscription: Sendable, Hashable {
        /// Every slot (flags 0).
        case all
        /// One slot (flag 1).
        case slot(UInt8)
        /// The controller with this MAC address (flag 2).
        case mac([UInt8])
    }

    /// A decoded message.
    package enum Message: Sendable, Hashable {
        /// A client asks the protocol version (no payload).
        case versionRequest
        /// A server's protocol version.
        case versionResponse(UInt16)
        /// A client asks the state of these slots.
        case infoRequest(slots: [UInt8])
        /// A server describes one slot.
        case info(Slot)
        /// A client asks for data (and renews its subscription).
        case dataRequest(Subscription)
        /// A server's data for one slot: `packet` counts the packets sent for that slot.
        case data(Slot, packet: UInt32, motion: Motion)
    }

    /// One decoded packet: who sent it, its id and its message.
    package struct Decoded: Sendable, Hashable {
        package var sender: Sender
        package var id: UInt32
        package var message: Message
    }

    // MARK: Encoding

    /// The packet carrying `message` from `sender` with id `id`, CRC filled in.
    package static func encode(_ message: Message, from sender: Sender, id: UInt32) -> [UInt8] {
        var payload = Writer()
        switch message {
        case .versionRequest:
            payload.u32(MessageType.version.rawValue)
        case .versionResponse(let version):
            payload.u32(MessageType.version.rawValue)
            payload.u16(version)
        case .infoRequest(let slots):
            payload.u32(MessageType.controllerInfo.rawValue)
            payload.u32(UInt32(slots.count))
            payload.bytes.append(contentsOf: slots)
        case .info(let slot):
            payload.u32(MessageType.controllerInfo.rawValue)
            payload.slot(slot)
            payload.bytes.append(0)
        case .dataRequest(let subscription):
            payload.u32(MessageType.controllerData.rawValue)
            switch subscription {
            case .all: payload.bytes += [0, 0, 0, 0, 0, 0, 0, 0]
            case .slot(let slot): payload.bytes += [1, slot, 0, 0, 0, 0, 0, 0]
            case .mac(let mac): payload.bytes += [2, 0] + Array((mac + [0, 0, 0, 0, 0, 0]).prefix(6))
            }
        case .data(let slot, let packet, let motion):
            payload.u32(MessageType.controllerData.rawValue)
            payload.slot(slot)
            payload.bytes.append(slot.state == 2 ? 1 : 0)
            payload.u32(packet)
            // Buttons (2), home, touch button, four sticks (centred), twelve analog buttons, two touches (6 each):
            // a motion source has none of them.
            payload.bytes += [0, 0, 0, 0, 128, 128, 128, 128]
            payload.bytes += [UInt8](repeating: 0, count: 12 + 12)
            payload.u64(motion.timestamp)
            for v in [motion.accel.x, motion.accel.y, motion.accel.z, motion.gyro.x, motion.gyro.y, motion.gyro.z] {
                payload.u32(v.bitPattern)
            }
        }
        var packet = Writer()
        packet.bytes = sender.magic
        packet.u16(version)
        packet.u16(UInt16(payload.bytes.count))
        packet.u32(0)
        packet.u32(id)
        packet.bytes += payload.bytes
        let crc = crc32(packet.bytes)
        packet.bytes[8] = UInt8(truncatingIfNeeded: crc)
        packet.bytes[9] = UInt8(truncatingIfNeeded: crc >> 8)
        packet.bytes[10] = UInt8(truncatingIfNeeded: crc >> 16)
        packet.bytes[11] = UInt8(truncatingIfNeeded: crc >> 24)
        return packet.bytes
    }

    /// zlib's CRC-32 of `bytes`.
    package static func crc32(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { buffer in
            UInt32(CZlib.crc32(0, buffer.baseAddress, uInt(buffer.count)))
        }
    }

    // MARK: Decoding

    /// Decodes one datagram.
    ///
    /// A datagram shorter than the header or than its length field says is truncated; one longer is cut to its
    /// length (the protocol's rule). The magic, the version and the CRC must be right, the type known and the payload
    /// long enough for it.
    /// - Throws: ``DSUError`` saying which.
    package static func decode(_ datagram: [UInt8]) throws(DSUError) -> Decoded {
        guard datagram.count >= headerSize + 4 else {
            throw DSUError(.truncated, "a DSU packet of \(datagram.count) bytes is shorter than its header (20 bytes)")
        }
        let sender: Sender
        switch Array(datagram[0..<4]) {
        case Sender.server.magic: sender = .server
        case Sender.client.magic: sender = .client
        default: throw DSUError(.badMagic, "not a DSU packet: it starts \(hex(datagram.prefix(4))), not DSUS or DSUC")
        }
        var header = Reader(datagram, at: 4)
        let packetVersion = header.u16()
        guard packetVersion == version else {
            throw DSUError(.version, "DSU protocol version \(packetVersion); only \(version) is spoken")
        }
        let length = Int(header.u16())
        guard length >= 4, headerSize + length <= datagram.count else {
            throw DSUError(
                .truncated,
                "a DSU packet says its payload is \(length) bytes but \(datagram.count - headerSize) came")
        }
        var packet = Array(datagram.prefix(headerSize + length))
        let crc = header.u32()
        let id = header.u32()
        packet[8] = 0
        packet[9] = 0
        packet[10] = 0
        packet[11] = 0
        guard crc32(packet) == crc else {
            throw DSUError(.crc, "a DSU packet's CRC-32 does not match its bytes")
        }
        var r = Reader(packet, at: headerSize)
        let rawType = r.u32()
        guard let type = MessageType(rawValue: rawType) else {
            throw DSUError(.unknownType, "unknown DSU message type 0x\(String(rawType, radix: 16))")
        }
        func need(_ bytes: Int) throws(DSUError) {
            guard r.remaining >= bytes else {
                throw DSUError(
                    .truncated, "a DSU \(type) message needs \(bytes) more bytes, it has \(r.remaining)")
            }
        }
        let message: Message
        switch (type, sender) {
        case (.version, .client):
            message = .versionRequest
        case (.version, .server):
            try need(2)
            message = .versionResponse(r.u16())
        case (.controllerInfo, .client):
            try need(4)
            let count = Int(Int32(bitPattern: r.u32()))
            guard (0...slotCount).contains(count) else {
                throw DSUError(.malformed, "a DSU slot request for \(count) slots; there are \(slotCount)")
            }
            try need(count)
            message = .infoRequest(slots: (0..<count).map { _ in r.u8() })
        case (.controllerInfo, .server):
            try need(12)
            message = .info(r.slot())
        case (.controllerData, .client):
            try need(8)
            let flags = r.u8()
            let slot = r.u8()
            let mac = r.take(6)
            switch flags {
            case 0: message = .dataRequest(.all)
            case 1: message = .dataRequest(.slot(slot))
            case 2: message = .dataRequest(.mac(mac))
            default:
                // Both bits: the protocol means "this slot or this MAC"; the slot is what servers act on.
                message = .dataRequest(flags & 1 != 0 ? .slot(slot) : .all)
            }
        case (.controllerData, .server):
            try need(dataPacketSize - headerSize - 4)
            let slot = r.slot()
            _ = r.u8()  // connected
            let number = r.u32()
            r.skip(4 + 4 + 12 + 12)
            let timestamp = r.u64()
            var values: [Float] = []
            for _ in 0..<6 { values.append(Float(bitPattern: r.u32())) }
            message = .data(
                slot, packet: number,
                motion: Motion(
                    timestamp: timestamp, accel: SIMD3(values[0], values[1], values[2]),
                    gyro: SIMD3(values[3], values[4], values[5])))
        }
        return Decoded(sender: sender, id: id, message: message)
    }

    static func hex(_ bytes: some Collection<UInt8>) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
            .joined(separator: " ")
    }

    private struct Writer {
        var bytes: [UInt8] = []
        mutating func u16(_ v: UInt16) { bytes += [UInt8(truncatingIfNeeded: v), UInt8(truncatingIfNeeded: v >> 8)] }
        mutating func u32(_ v: UInt32) {
            for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: v >> UInt32(shift))) }
        }
        mutating func u64(_ v: UInt64) {
            for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: v >> UInt64(shift))) }
        }
        mutating func slot(_ s: Slot) {
            bytes += [s.slot, s.state, s.model, s.connection] + s.mac + [s.battery]
        }
    }

    private struct Reader {
        let bytes: [UInt8]
        var index: Int
        init(_ bytes: [UInt8], at index: Int) {
            self.bytes = bytes
            self.index = index
        }
        var remaining: Int { bytes.count - index }
        mutating func u8() -> UInt8 {
            defer { index += 1 }
            return bytes[index]
        }
        mutating func u16() -> UInt16 { UInt16(u8()) | UInt16(u8()) << 8 }
        mutating func u32() -> UInt32 { UInt32(u16()) | UInt32(u16()) << 16 }
        mutating func u64() -> UInt64 { UInt64(u32()) | UInt64(u32()) << 32 }
        mutating func take(_ n: Int) -> [UInt8] {
            defer { index += n }
            return Array(bytes[index..<index + n])
        }
        mutating func skip(_ n: Int) { index += n }
        mutating func slot() -> Slot {
            let head = take(4)
            let mac = take(6)
            return Slot(slot: head[0], state: head[1], model: head[2], connection: head[3], mac: mac, battery: u8())
        }
    }
}

/// A DSU packet that was refused, and why.
package typealias DSUError = TiltError<DSUErrorKind>

/// Why a DSU packet was refused: what the server counts in `status` by reason.
package enum DSUErrorKind: String, Sendable, Hashable, CaseIterable {
    /// Shorter than its header or than its length field says.
    case truncated
    /// Not `DSUS` or `DSUC`.
    case badMagic
    /// Another protocol version.
    case version
    /// The CRC-32 does not match.
    case crc
    /// A message type this side does not speak.
    case unknownType
    /// Fields out of range.
    case malformed
}
