import NIOCore
import Synchronization
import TiltCore
import TiltSensors
import TiltWire

/// What the sensor must do for the clients there are: run or not, and at what rate.
struct Demand: Sendable, Equatable {
    /// Someone watches frames or raw samples, or waits for a poll.
    var active: Bool
    /// The highest rate any watcher asked for, Hz.
    var rate: Double?

    static let idle = Demand(active: false, rate: nil)
}

/// The daemon's meeting point: the latest frame, the power and sensor state, and every connected client.
///
/// The motion side publishes into it; socket sessions register with it and read from it. Publishing never waits
/// on a client: frames due to a client are handed to that client's event loop, which drops them if the client is
/// not reading (see `SessionHandler`). State is small and touched briefly, so one `Mutex` guards it.
final class Hub: Sendable {
    struct Subscriber {
        let session: NIOLoopBound<SessionHandler>
        let eventLoop: any EventLoop
        var watching = false
        var raw = false
        var rate: Double?
        var schedule = RateSchedule(rate: WireProtocol.defaultRate)
        var pollPending = false
    }

    struct State {
        var subscribers: [UInt64: Subscriber] = [:]
        var nextID: UInt64 = 1
        var latest: AttitudeFrame?
        var gyroBias: Vector3 = .zero
        var power: PowerState = .mains
        var sensorState: SensorState = .idle
        var samples: UInt64 = 0
        var rejected: UInt64 = 0
        var lastRejection: String?
        var demand: Demand = .idle
    }

    let sourceName: String
    let sensors: [SensorDescription]
    let startTime: Double
    /// Which calibration applies and why, as `status` reports it; replaced when `SIGHUP` re-resolves it.
    private let calibrationState: Mutex<String>
    private let state = Mutex(State())
    private let demandContinuation: AsyncStream<Demand>.Continuation
    /// Changes of demand, newest wins: the motion service follows it.
    let demands: AsyncStream<Demand>
    private let tareAction: Mutex<(@Sendable () -> Quaternion?)?> = Mutex(nil)
    private let allocator = ByteBufferAllocator()

    init(sourceName: String, sensors: [SensorDescription], calibration: String, power: PowerState = .mains) {
        self.sourceName = sourceName
        self.sensors = sensors
        calibrationState = Mutex(calibration)
        startTime = monotonicSeconds()
        (demands, demandContinuation) = AsyncStream.makeStream(of: Demand.self, bufferingPolicy: .bufferingNewest(1))
        state.withLock { $0.power = power }
    }

    /// Ends the demand stream (at shutdown).
    func finish() {
        demandContinuation.finish()
    }

    // MARK: Sessions

    /// Registers a new connection and returns its id, or `nil` when `limit` clients are connected already.
    func register(session: NIOLoopBound<SessionHandler>, eventLoop: any EventLoop, limit: Int = .max) -> UInt64? {
        state.withLock { s in
            guard s.subscribers.count < limit else { return nil }
            let id = s.nextID
            s.nextID += 1
            s.subscribers[id] = Subscriber(session: session, eventLoop: eventLoop)
            return id
        }
    }

    /// Forgets a connection.
    func unregister(id: UInt64) {
        updateDemand { s in s.subscribers[id] = nil }
    }

    /// Starts or stops frames (and raw samples) for a connection.
    func setWatch(id: UInt64, enable: Bool, rate: Double?, raw: Bool) {
        updateDemand { s in
            guard var sub = s.subscribers[id] else { return }
            sub.watching = enable
            sub.raw = enable && raw
            let granted = min(max(rate ?? WireProtocol.defaultRate, 0.1), WireProtocol.maxRate)
            sub.rate = enable ? granted : nil
            sub.schedule.setRate(granted)
            s.subscribers[id] = sub
        }
    }

    /// Answers a `poll`: the latest frame now if the sensor is running or done, else the next one.
    func poll(id: UInt64) -> AttitudeFrame? {
        var immediate: AttitudeFrame?
        updateDemand { s in
            if let latest = s.latest, s.sensorState != .idle {
                immediate = latest
                return
            }
            s.subscribers[id]?.pollPending = true
        }
        return immediate
    }

    private func updateDemand(_ body: (inout State) -> Void) {
        let changed: Demand? = state.withLock { s in
            body(&s)
            let d = Self.demand(of: s)
            guard d != s.demand else { return nil }
            s.demand = d
            return d
        }
        if let changed { demandContinuation.yield(changed) }
    }

    private static func demand(of s: State) -> Demand {
        var active = false
        var rate: Double?
        for sub in s.subscribers.values where sub.watching || sub.pollPending {
            active = true
            if let r = sub.rate { rate = max(rate ?? 0, r) }
        }
        return Demand(active: active, rate: rate)
    }

    // MARK: Publishing

    /// Publishes a fused frame to the watchers that are due one, and to pending polls.
    func publish(_ frame: AttitudeFrame, gyroBias: Vector3) {
        let now = monotonicSeconds()
        var targets: [(NIOLoopBound<SessionHandler>, any EventLoop)] = []
        var servedPoll = false
        state.withLock { s in
            s.latest = frame
            s.gyroBias = gyroBias
            s.samples &+= 1
            for id in s.subscribers.keys {
                guard s.subscribers[id]!.watching || s.subscribers[id]!.pollPending else { continue }
                var due = false
                if s.subscribers[id]!.pollPending {
                    s.subscribers[id]!.pollPending = false
                    servedPoll = true
                    due = true
                }
                if s.subscribers[id]!.watching, s.subscribers[id]!.schedule.take(at: now) { due = true }
                if due { targets.append((s.subscribers[id]!.session, s.subscribers[id]!.eventLoop)) }
            }
        }
        if servedPoll { updateDemand { _ in } }
        guard !targets.isEmpty else { return }
        let buffer = encode(ServerMessage.encode(frame: frame))
        for (session, loop) in targets {
            loop.execute { session.value.deliver(buffer, kind: .frame) }
        }
    }

    /// Sends a raw sample to connections watching with `raw`.
    func publishRaw(_ sample: MotionSample) {
        let targets = state.withLock { s in
            s.subscribers.values.filter { $0.raw }.map { ($0.session, $0.eventLoop) }
        }
        guard !targets.isEmpty else { return }
        let buffer = encode(ServerMessage.sample(sample).jsonLine)
        for (session, loop) in targets {
            loop.execute { session.value.deliver(buffer, kind: .sample) }
        }
    }

    /// Records the sensor's state and tells every client.
    func setSensorState(_ newState: SensorState, reason: String) {
        let changed = state.withLock { s -> Bool in
            guard s.sensorState != newState else { return false }
            s.sensorState = newState
            return true
        }
        guard changed else { return }
        broadcast(.sensor(.init(state: newState.rawValue, reason: reason)))
    }

    /// Counts a rejected sample or log row.
    func reject(reason: String) {
        state.withLock { s in
            s.rejected &+= 1
            s.lastRejection = reason
        }
    }

    /// Records a new power state and tells every client, if it changed.
    func setPower(_ power: PowerState) {
        let changed = state.withLock { s -> Bool in
            guard s.power != power else { return false }
            s.power = power
            return true
        }
        if changed { broadcast(.power(power)) }
    }

    private func broadcast(_ message: ServerMessage) {
        let targets = state.withLock { s in s.subscribers.values.map { ($0.session, $0.eventLoop) } }
        let buffer = encode(message.jsonLine)
        for (session, loop) in targets {
            loop.execute { session.value.deliver(buffer, kind: .event) }
        }
    }

    private func encode(_ line: String) -> ByteBuffer {
        var buffer = allocator.buffer(capacity: line.utf8.count + 1)
        buffer.writeString(line)
        buffer.writeInteger(UInt8(ascii: "\n"))
        return buffer
    }

    // MARK: Tare and status

    /// Installs what `tare` does (set by the motion service).
    func setTareAction(_ action: @escaping @Sendable () -> Quaternion?) {
        tareAction.withLock { $0 = action }
    }

    /// Re-centres the tilt; returns the new reference, or `nil` if there is no attitude yet (the first pose then
    /// becomes the reference).
    func tare() -> Quaternion? {
        let action = tareAction.withLock { $0 }
        return action?()
    }

    var hello: ServerMessage {
        let power = state.withLock { $0.power }
        return .hello(
            .init(
                protocol: WireProtocol.version, daemon: "tiltd \(WireProtocol.daemonVersion)",
                sensors: sensors.map(WireSensor.init), power: WirePower(power)))
    }

    /// The status report for one client.
    func status(client: StatusReport.Client) -> StatusReport {
        let now = monotonicSeconds()
        return state.withLock { s in
            let sub = s.subscribers[client.id]
            var c = client
            c.watching = sub?.watching ?? false
            c.rate = sub?.rate
            c.raw = sub?.raw ?? false
            return StatusReport(
                daemon: "tiltd \(WireProtocol.daemonVersion)", protocol: WireProtocol.version, uptime: now - startTime,
                source: sourceName, sensor: s.sensorState.rawValue, clients: s.subscribers.count,
                watchers: s.subscribers.values.filter { $0.watching }.count, requestedRate: s.demand.rate,
                samples: s.samples, rejected: s.rejected, lastRejection: s.lastRejection, seq: s.latest?.seq,
                gyroBias: s.gyroBias.array, calibration: calibration, power: WirePower(s.power), client: c)
        }
    }

    /// Closes every client connection (at shutdown) and waits until they are closed.
    func closeAll() async {
        let targets = state.withLock { s in s.subscribers.values.map { ($0.session, $0.eventLoop) } }
        for (session, loop) in targets {
            try? await loop.submit { session.value.close() }.get()
        }
    }

    /// Which calibration applies and why.
    var calibration: String { calibrationState.withLock { $0 } }

    /// Replaces the calibration explanation `status` reports (after a reload).
    func setCalibration(_ explanation: String) {
        calibrationState.withLock { $0 = explanation }
    }

    /// The latest frame, if any.
    var latest: AttitudeFrame? { state.withLock { $0.latest } }

    /// The current demand.
    var demand: Demand { state.withLock { $0.demand } }

    /// Number of connected clients.
    var clientCount: Int { state.withLock { $0.subscribers.count } }
}
