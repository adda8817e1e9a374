import Synchronization
import TiltCore
import TiltSensors

/// Motion from a DSU ("cemuhook") server: a phone app, a Joy-Con or Steam Deck tool, another tiltd with
/// `--dsu-server` (issue 31; docs/dsu.md).
///
/// While it runs it subscribes to one slot of the server (the one configured, else the first the server says is
/// connected), renews the subscription every second (servers forget a client after 5 s), and turns each data packet
/// into a device-frame ``MotionSample`` (``DSUAxes``). Packets are checked by ``DSUPacket/decode(_:)`` (magic,
/// version, length, CRC-32); a bad one is a rejection, not a failure. A server that sends nothing for
/// ``Configuration/quietTimeout`` is a `lost` sensor, and one that sends again is `active`, with a gap between (the
/// filter does not integrate across the silence). Sample times are the server's microsecond timestamps, on this
/// machine's monotonic clock from the first packet after each (re)start, and the time of arrival for a server that
/// sends none. Nothing is sent while the daemon's sensor is off: the subscription lapses.
package struct DSUMotionSource: MotionSource {
    /// Where the server is, and the timing of the subscription.
    package struct Configuration: Sendable, Hashable {
        package var endpoint: DSUEndpoint
        /// How often the subscription is renewed, seconds (servers drop a client after 5 s without a request).
        package var renewInterval: Double
        /// Seconds without a data packet after which the sensor is `lost`.
        package var quietTimeout: Double

        package init(endpoint: DSUEndpoint, renewInterval: Double = 1, quietTimeout: Double = 1) {
            self.endpoint = endpoint
            self.renewInterval = renewInterval
            self.quietTimeout = quietTimeout
        }
    }

    package let configuration: Configuration
    package let sensors: [SensorDescription]
    /// `dsu:HOST:PORT/SLOT` (`/SLOT` only when one was chosen).
    package let name: String

    /// Checks that the server's address resolves; sends nothing yet.
    ///
    /// - Throws: ``DSUAddressError`` when the host does not resolve.
    package init(configuration: Configuration) throws(DSUAddressError) {
        _ = try DSUSocket.resolve(configuration.endpoint)
        self.configuration = configuration
        name = "dsu:\(configuration.endpoint)"
        sensors = [
            SensorDescription(
                name: name, kinds: [.accelerometer, .gyroscope], location: "udp://\(configuration.endpoint)",
                rateHz: nil,
                mode: "dsu")
        ]
    }

    package var summary: String {
        let slot = configuration.endpoint.slot.map { "slot \($0)" } ?? "the first connected slot"
        return "DSU server \(configuration.endpoint) (resolves; \(slot); not contacted by --check)"
    }

    package func run(rate: Double?, events: @Sendable (MotionSourceEvent) -> Void) async throws {
        let socket: DSUSocket
        do {
            socket = try DSUSocket(connectingTo: configuration.endpoint)
        } catch {
            throw MotionSourceError(.device(error))
        }
        let state = DSUClientState(configuration: configuration)
        let thread = CaptureThread<[MotionSourceEvent], Never>(name: "tilt-dsu-client") { state.step(socket) }
        // It ends only by cancellation (the daemon's sensor going idle): that is no failure.
        do { try await thread.drain { $0.forEach(events) } } catch {}
    }
}

/// The DSU client's loop, one turn a call of the capture thread: requests out, at most one datagram in (50 ms).
final class DSUClientState: Sendable {
    private let client: Mutex<DSUClient>

    init(configuration: DSUMotionSource.Configuration) {
        client = Mutex(DSUClient(configuration: configuration))
    }

    /// Sends what is due on `socket`, waits for a datagram, and returns what it gave (`nil`: nothing).
    func step(_ socket: DSUSocket) -> [MotionSourceEvent]? {
        let requests = client.withLock { $0.requests(now: monotonicSeconds()) }
        for request in requests { socket.send(request) }
        let datagram = socket.receive(timeoutMs: 50)
        let events = client.withLock { $0.received(datagram, at: monotonicSeconds()) }
        return events.isEmpty ? nil : events
    }
}

/// What a DSU client does, without the socket: which requests are due, and what a datagram (or the lack of one)
/// means. Unit-tested with packets made by ``DSUPacket``.
struct DSUClient: Sendable {
    let configuration: DSUMotionSource.Configuration
    /// This client's id in its packets (random per run, as the protocol asks).
    let id = UInt32.random(in: 1...UInt32.max)
    /// The slot read: the configured one, or the first the server says is connected (`nil` until it says).
    private(set) var slot: UInt8?
    private var lastRequest: Double?
    private var lastData: Double?
    private let started: Double?
    /// Whether `active` was reported and not followed by `lost`.
    private(set) var active = false
    private var lostReported = false
    /// The server's time of the previous packet, µs, and the offset onto this machine's clock, seconds.
    private var lastStamp: UInt64?
    private var offset = 0.0
    private var gapPending = false

    init(configuration: DSUMotionSource.Configuration, now: Double = monotonicSeconds()) {
        self.configuration = configuration
        slot = configuration.endpoint.slot
        started = now
    }

    /// The packets to send now: the subscription when it is due, or the slot question while no slot is known.
    mutating func requests(now: Double) -> [[UInt8]] {
        if let last = lastRequest, now - last < configuration.renewInterval { return [] }
        lastRequest = now
        guard let slot else {
            return [DSUPacket.encode(.infoRequest(slots: [0, 1, 2, 3]), from: .client, id: id)]
        }
        return [DSUPacket.encode(.dataRequest(.slot(slot)), from: .client, id: id)]
    }

    /// What `datagram` (or none, `nil`) received at `now` gives.
    mutating func received(_ datagram: [UInt8]?, at now: Double) -> [MotionSourceEvent] {
        var out: [MotionSourceEvent] = []
        if let datagram {
            do {
                let packet = try DSUPacket.decode(datagram)
                switch packet.message {
                case .info(let info) where slot == nil && info.state == 2:
                    slot = info.slot
                    lastRequest = nil  // subscribe at once
                case .data(let info, _, let motion) where info.slot == slot && info.state == 2:
                    out += sample(motion, at: now)
                default:
                    break
                }
            } catch {
                out.append(.rejected(reason: "DSU packet from \(configuration.endpoint): \(error)"))
            }
        }
        let since = lastData ?? started ?? now
        if now - since > configuration.quietTimeout, active || !lostReported {
            active = false
            lostReported = true
            if configuration.endpoint.slot == nil { slot = nil }
            let what = lastData == nil ? "does not answer" : "stopped sending"
            out.append(
                .sensor(
                    .lost,
                    reason:
                        "the DSU server at \(configuration.endpoint) \(what) (nothing for "
                        + "\(Self.seconds(configuration.quietTimeout))); is it running, and is slot "
                        + "\(slot.map(String.init) ?? "any") connected there?"))
            if lastData != nil { gapPending = true }
        }
        return out
    }

    private mutating func sample(_ motion: DSUPacket.Motion, at now: Double) -> [MotionSourceEvent] {
        var out: [MotionSourceEvent] = []
        if !active {
            active = true
            lostReported = false
            out.append(.sensor(.active, reason: "DSU server \(configuration.endpoint), slot \(slot ?? 0)"))
        }
        // The server's clock onto ours: from the first packet, and again after a silence or a jump of its clock.
        let stamp = motion.timestamp
        var time = now
        if stamp != 0 {
            let jumped = lastStamp.map { stamp <= $0 || stamp - $0 > 1_000_000 } ?? true
            if jumped || gapPending { offset = now - Double(stamp) / 1e6 }
            if let last = lastStamp, jumped, !gapPending {
                out.append(.gap(SampleGap(first: Double(last) / 1e6 + offset, reason: "the DSU server's clock jumped")))
            }
            time = Double(stamp) / 1e6 + offset
            lastStamp = stamp
        }
        if gapPending {
            gapPending = false
            out.append(.gap(SampleGap(reason: "the DSU server was silent")))
        }
        lastData = now
        let (accel, gyro) = DSUAxes.deviceFrame(motion)
        guard accel.x.isFinite, accel.y.isFinite, accel.z.isFinite, gyro.x.isFinite, gyro.y.isFinite, gyro.z.isFinite
        else {
            out.append(.rejected(reason: "DSU packet from \(configuration.endpoint) with a non-finite value"))
            return out
        }
        out.append(.sample(MotionSample(time: time, gyro: gyro, accel: accel)))
        return out
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}

extension DSUMotionSource.Configuration: MotionSourceConfiguration {
    package func open() throws -> any MotionSource { try DSUMotionSource(configuration: self) }
    package var openFailure: String { "cannot read the DSU server \(endpoint)" }
    package var calibrationExemption: String? {
        "a DSU server sends motion it calibrated itself, in the protocol's axes"
    }
}
