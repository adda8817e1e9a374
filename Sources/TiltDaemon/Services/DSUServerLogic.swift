import TiltCore
import TiltSensors
import TiltWire

/// What tiltd's DSU server does with datagrams and samples, without the socket (``DSUServerService`` moves the
/// bytes): answers, subscriptions, limits and counters. `Peer` is whatever names a client's address (a NIO
/// `SocketAddress` in the daemon, a string in tests); `host` is the part a flood is limited by.
struct DSUServerLogic<Peer: Hashable & Sendable>: Sendable {
    /// A client's subscription lapses this long after its last data request (the protocol's rule), seconds.
    static var subscriptionLifetime: Double { 5 }
    /// Subscribers served at once; a new one beyond them is refused (`dropped.full`).
    static var maxSubscribers: Int { 16 }
    /// Datagrams per second one host may send on average, and the burst it may send at once: a client sends a
    /// request or two a second, so this leaves room for many on one machine and stops a flood from costing more.
    static var hostRate: Double { 50 }
    static var hostBurst: Double { 100 }
    /// Hosts whose rate is tracked at once; a host idle for 10 s is forgotten first.
    static var trackedHosts: Int { 256 }

    /// The one slot tiltd serves: slot 0, connected, with a full gyroscope, and a locally administered MAC address
    /// spelling "tilt" (02:74:69:6c:74:00), so clients that pick a controller by MAC find the same one every run.
    static var slot: DSUPacket.Slot {
        DSUPacket.Slot(slot: 0, state: 2, model: 2, connection: 0, mac: [0x02, 0x74, 0x69, 0x6c, 0x74, 0x00])
    }

    private struct Bucket {
        var tokens: Double
        var last: Double
    }

    /// This server's id in its packets (random per run).
    let id: UInt32
    private(set) var subscribers: [Peer: Double] = [:]
    private var buckets: [String: Bucket] = [:]
    private var packet: UInt32 = 0
    private(set) var sent: UInt64 = 0
    private(set) var received: UInt64 = 0
    private(set) var dropped: [String: UInt64] = [:]

    init(id: UInt32 = .random(in: 1...UInt32.max)) {
        self.id = id
    }

    /// The answers to a datagram from `peer` (on `host`) at `now`; a data request subscribes the peer. A datagram
    /// that is not a valid client request, or one over the host's rate, is counted and answered with nothing.
    mutating func handle(_ datagram: [UInt8], from peer: Peer, host: String, now: Double) -> [[UInt8]] {
        guard admit(host: host, now: now) else {
            count("rateLimited")
            return []
        }
        let decoded: DSUPacket.Decoded
        do {
            decoded = try DSUPacket.decode(datagram)
        } catch {
            count(error.kind.rawValue)
            return []
        }
        guard decoded.sender == .client else {
            count(DSUErrorKind.malformed.rawValue)
            return []
        }
        received &+= 1
        switch decoded.message {
        case .versionRequest:
            return [DSUPacket.encode(.versionResponse(DSUPacket.version), from: .server, id: id)]
        case .infoRequest(let slots):
            var seen = Set<UInt8>()
            return slots.filter { seen.insert($0).inserted && Int($0) < DSUPacket.slotCount }.map { n in
                DSUPacket.encode(.info(n == 0 ? Self.slot : .empty(n)), from: .server, id: id)
            }
        case .dataRequest(let subscription):
            let ours: Bool =
                switch subscription {
                case .all: true
                case .slot(let n): n == 0
                case .mac(let mac): mac == Self.slot.mac
                }
            guard ours else { return [] }
            if subscribers[peer] == nil, subscribers.count >= Self.maxSubscribers {
                count("full")
                return []
            }
            subscribers[peer] = now
            return []
        default:
            count(DSUErrorKind.malformed.rawValue)
            return []
        }
    }

    /// Forgets the subscribers that have not asked for `subscriptionLifetime`.
    mutating func expire(now: Double) {
        guard subscribers.values.contains(where: { now - $0 > Self.subscriptionLifetime }) else { return }
        subscribers = subscribers.filter { now - $0.value <= Self.subscriptionLifetime }
    }

    /// The data packet for one fused sample (device-frame specific force and bias-corrected rate) and who gets it:
    /// `nil` when nobody is subscribed (no packet number is spent).
    mutating func dataPacket(accel: Vector3, rate: Vector3, time: Double, now: Double) -> (
        packet: [UInt8], peers: [Peer]
    )? {
        expire(now: now)
        guard !subscribers.isEmpty else { return nil }
        let micros = time.isFinite && time > 0 ? UInt64((time * 1e6).rounded()) : 0
        let motion = DSUAxes.motion(accel: accel, gyro: rate, timestamp: micros)
        let bytes = DSUPacket.encode(.data(Self.slot, packet: packet, motion: motion), from: .server, id: id)
        packet &+= 1
        sent &+= UInt64(subscribers.count)
        return (bytes, Array(subscribers.keys))
    }

    /// The counters for `status`.
    func report(listen: String) -> WireDSU {
        WireDSU(listen: listen, subscribers: subscribers.count, sent: sent, received: received, dropped: dropped)
    }

    private mutating func count(_ reason: String) {
        dropped[reason, default: 0] &+= 1
    }

    /// Whether `host` may send one more datagram now (a token bucket per host).
    private mutating func admit(host: String, now: Double) -> Bool {
        if buckets[host] == nil, buckets.count >= Self.trackedHosts {
            buckets = buckets.filter { now - $0.value.last < 10 }
            guard buckets.count < Self.trackedHosts else { return false }
        }
        var bucket = buckets[host] ?? Bucket(tokens: Self.hostBurst, last: now)
        bucket.tokens = min(Self.hostBurst, bucket.tokens + max(0, now - bucket.last) * Self.hostRate)
        bucket.last = now
        let admitted = bucket.tokens >= 1
        if admitted { bucket.tokens -= 1 }
        buckets[host] = bucket
        return admitted
    }
}
