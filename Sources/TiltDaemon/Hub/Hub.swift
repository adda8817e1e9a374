import Synchronization
import TiltCore
import TiltWire

/// The daemon's meeting point: the latest frame, the power and sensor state, and every connected client.
///
/// The motion side publishes into it; socket sessions register a ``ClientSink`` with it and read from it. It is the
/// one place that knows what each client watches (rate, raw, a pending poll) and what it was sent or missed, so
/// `status` is built here whole. Publishing never waits on a client: a line due to a client is handed to its
/// subscriber, which drops it if the client is not reading. State is small and touched briefly, so one `Mutex`
/// guards it. The hub knows nothing of NIO and is tested without it.
final class Hub: Sendable {
    struct State {
        var clients: [UInt64: Client] = [:]
        var nextID: UInt64 = 1
        var latest: AttitudeFrame?
        var gyroBias: Vector3 = .zero
        var power: PowerState = .mains
        var sensorState: SensorState = .idle
        /// Why the sensor is in ``sensorState``.
        var sensorReason = "not started: nobody watches yet"
        var samples: UInt64 = 0
        var rejected: UInt64 = 0
        var lastRejection: String?
        var demand: Demand = .idle
        var orientation = WireOrientation(.undefined, .undefined)
        /// Holders of the sensor outside the socket, by service (``Demand/Holder``): the sensor runs while there is
        /// one, as it does for a watcher, at the service's least rate or more.
        var holders: [Demand.Holder: Int] = [:]
        /// Which calibration applies and why; replaced when `SIGHUP` re-resolves it.
        var calibration: String
        var calibrated: Bool
        /// The attitude filters running (issue 16): reported by the motion service.
        var filters: [AttitudeReference] = []
        /// Set while another program holds the sensor's buffer (see ``Hub/setBusy(_:announce:)``).
        var busy: SensorBusy?
        /// The `seq` of the last fused sample, whichever filters ran for it.
        var lastSeq: UInt64?
    }

    let sourceName: String
    let sensors: [SensorDescription]
    /// Samples per second as they reach clients (a replay's rate times its speed; 1000 when the rate is unknown):
    /// what `raw_queue_seconds` is counted in.
    let deliveredRate: Double
    let startTime: Double
    /// The attitude the main filter gives: `magnetic` when it fuses a magnetometer, else `game`.
    let mainReference: AttitudeReference
    let state: Mutex<State>
    private let demandContinuation: AsyncStream<Demand>.Continuation
    /// Changes of demand, newest wins: the motion service follows it.
    let demands: AsyncStream<Demand>
    private let tareActions = Mutex(TareActions())
    /// The services that follow the hub beside the socket's clients (``HubObserver``).
    private let observers = Mutex<[any HubObserver]>([])

    init(
        sourceName: String, sensors: [SensorDescription], calibration: String, calibrated: Bool,
        power: PowerState = .mains, mainReference: AttitudeReference = .magnetic, speed: Double = 1
    ) {
        self.mainReference = mainReference
        let rate = sensors.first?.rateHz.flatMap { $0 > 0 && $0.isFinite ? $0 : nil } ?? Self.unknownRate
        deliveredRate = rate * (speed > 0 && speed.isFinite ? speed : 1)
        self.sourceName = sourceName
        self.sensors = sensors
        state = Mutex(State(power: power, calibration: calibration, calibrated: calibrated))
        startTime = monotonicSeconds()
        (demands, demandContinuation) = AsyncStream.makeStream(of: Demand.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Ends the demand stream (at shutdown).
    func finish() {
        demandContinuation.finish()
    }

    // MARK: Clients

    /// Registers a new client and returns its id, or `nil` when `limit` clients are connected already.
    func register(_ sink: any ClientSink, limit: Int = .max) -> UInt64? {
        state.withLock { s in
            guard s.clients.count < limit else { return nil }
            let id = s.nextID
            s.nextID += 1
            s.clients[id] = Client(sink: sink)
            return id
        }
    }

    /// Forgets a client; returns how many frames it was sent and how many it missed.
    @discardableResult
    func unregister(id: UInt64) -> (sent: UInt64, dropped: UInt64)? {
        var counts: (sent: UInt64, dropped: UInt64)?
        updateDemand { s in
            counts = s.clients[id].map { ($0.sent, $0.dropped) }
            s.clients[id] = nil
        }
        return counts
    }

    /// Starts or stops frames (and raw samples) for a client, in the axes of `rotation`, from the attitude
    /// `magnetometer` asks for (`nil`: the main filter's).
    ///
    /// - Returns: Why the watch is refused (9D asked of a daemon without a magnetometer), or `nil`.
    @discardableResult
    func setWatch(
        id: UInt64, enable: Bool, rate: Double?, raw: Bool, rotation: ScreenRotation = .normal,
        magnetometer: Bool? = nil, predict: Double = 0
    ) -> String? {
        if enable, magnetometer == true, mainReference != .magnetic {
            return "no magnetometer: this daemon fuses without one (it has none, or runs with no_mag); "
                + "watch without \"magnetometer\" or with \"magnetometer\":false"
        }
        updateDemand { s in
            guard var client = s.clients[id] else { return }
            let granted = min(max(rate ?? WireProtocol.defaultRate, WireProtocol.minRate), WireProtocol.maxRate)
            client.watching = enable
            client.raw = enable && raw
            client.rate = enable ? granted : nil
            client.schedule.setRate(granted)
            client.screenRotation = rotation
            client.magnetometer = magnetometer
            client.predictMilliseconds = Int((min(max(predict, 0), WireProtocol.maxPredict) * 1000).rounded())
            s.clients[id] = client
        }
        return nil
    }

    /// Answers a `poll`: the latest frame now if the sensor is running or done, else `nil` and the next frame is
    /// delivered to the client when it comes.
    func poll(id: UInt64) -> AttitudeFrame? {
        var immediate: AttitudeFrame?
        updateDemand { s in
            // The latest main frame is current unless only the other filter runs now (it then starts for the poll).
            let mainRuns = s.filters.isEmpty || s.filters.contains(mainReference)
            if let latest = s.latest, s.sensorState != .idle, mainRuns {
                immediate = s.clients[id].map { $0.screenRotation.picture(latest) } ?? latest
            } else {
                s.clients[id]?.pollPending = true
            }
        }
        return immediate
    }

    /// Whether `id` expects frames: it watches, waits for a poll, or the frame answering its poll is on its way
    /// (a half-closed session stays open for them).
    func expectsFrames(id: UInt64) -> Bool {
        state.withLock { $0.clients[id]?.expectsFrames ?? false }
    }

    /// The frame answering `id`'s poll has been written.
    func pollAnswered(id: UInt64) {
        state.withLock { $0.clients[id]?.pollInFlight = false }
    }

    private func updateDemand(_ body: (inout State) -> Void) {
        let changed: Demand? = state.withLock { s in
            body(&s)
            let d = demand(of: s)
            guard d != s.demand else { return nil }
            s.demand = d
            return d
        }
        if let changed { demandContinuation.yield(changed) }
    }

    private func demand(of s: State) -> Demand {
        var active = false
        var rate: Double?
        var wanted = Set<AttitudeReference>()
        var horizons = Set<Int>()
        for client in s.clients.values where client.wantsFrames {
            active = true
            if client.watching, client.predictMilliseconds > 0 { horizons.insert(client.predictMilliseconds) }
            if let r = client.rate { rate = max(rate ?? 0, r) }
            wanted.insert(client.reference(main: mainReference))
        }
        for (holder, count) in s.holders where count > 0 {
            active = true
            rate = max(rate ?? 0, holder.leastRate)
        }
        return Demand(
            active: active, rate: rate, magnetic: wanted.contains(.magnetic), game: wanted.contains(.game),
            horizons: horizons)
    }

    /// Sets how many of `holder`'s callers hold the sensor outside the socket (the D-Bus service's claims, the DSU
    /// server's subscribers): while there is one the sensor runs, at the holder's least rate or more.
    func setHolders(_ holder: Demand.Holder, count: Int) {
        updateDemand { $0.holders[holder] = count }
    }

    /// Adds a service that follows the hub (``HubObserver``): from now on it is told every fused sample and change
    /// of orientation, and adds its part to `status`.
    func attach(_ observer: any HubObserver) {
        observers.withLock { $0.append(observer) }
    }

    /// Removes an observer ``attach(_:)`` added (a service that stops).
    func detach(_ observer: any HubObserver) {
        observers.withLock { $0.removeAll { $0 === observer } }
    }

    /// Hands a fused sample, calibrated, and the filter's bias-corrected rate to the observers. Called on the motion
    /// service's task: an observer must not block.
    func publishMotion(_ sample: MotionSample, rotationRate: Vector3) {
        for observer in observers.withLock({ $0 }) { observer.fused(sample, rotationRate: rotationRate) }
    }

    // MARK: Publishing

    /// Publishes a fused frame to the watchers that are due one, and to pending polls.
    ///
    /// - Parameter now: Monotonic seconds, for the watchers' rate schedules.
    /// A frame whose `reference` is not the main filter's goes only to the clients that asked for it (and is not
    /// the latest frame `poll` and `status` see); each client gets it in its own axes, encoded once per rotation.
    /// A watcher that asked for `predict` gets the frame `predicted` holds for its horizon (whole milliseconds),
    /// the frame as fused when there is none yet (its horizon started after this sample was fused); a poll is
    /// answered with the frame as fused.
    func publish(
        _ frame: AttitudeFrame, predicted: [Int: AttitudeFrame] = [:], gyroBias: Vector3,
        now: Double = monotonicSeconds()
    ) {
        var due: [(id: UInt64, sink: any ClientSink, answersPoll: Bool, rotation: ScreenRotation, horizon: Int)] = []
        var servedPoll = false
        let reference = frame.reference ?? mainReference
        state.withLock { s in
            if reference == mainReference { s.latest = frame }
            if s.lastSeq != frame.seq {
                // The first frame of a fused sample (the main filter's when it runs; frames of one sample share seq).
                s.lastSeq = frame.seq
                s.gyroBias = gyroBias
                s.samples &+= 1
            }
            for (id, var client) in s.clients
            where client.wantsFrames && client.reference(main: mainReference) == reference {
                // Both run: a watcher's schedule advances even when a poll makes the frame due anyway.
                let scheduled = client.watching && client.schedule.take(at: now)
                guard client.pollPending || scheduled else { continue }
                let answersPoll = client.pollPending
                servedPoll = servedPoll || answersPoll
                client.pollPending = false
                client.pollInFlight = client.pollInFlight || answersPoll
                s.clients[id] = client
                due.append(
                    (id, client.sink, answersPoll, client.screenRotation, answersPoll ? 0 : client.predictMilliseconds))
            }
        }
        if servedPoll { updateDemand { _ in } }
        guard !due.isEmpty else { return }
        var lines = FrameLines(frame, predicted: predicted)
        let outcomes = due.map {
            (
                $0.id,
                $0.sink.deliver(
                    lines.line(for: $0.rotation, horizon: $0.horizon), kind: .frame(answersPoll: $0.answersPoll))
            )
        }
        state.withLock { s in
            for (id, delivered) in outcomes {
                if delivered {
                    s.clients[id]?.sent &+= 1
                } else {
                    s.clients[id]?.dropped &+= 1
                    s.clients[id]?.pollInFlight = false
                }
            }
        }
    }

    /// The rate assumed for a source that does not say its own, Hz.
    static let unknownRate = 1000.0

    /// Sends a raw sample to the clients watching with `raw`; their sessions queue it while they do not read.
    func publishRaw(_ sample: MotionSample) {
        let sinks = state.withLock { s in s.clients.values.filter(\.raw).map(\.sink) }
        guard !sinks.isEmpty else { return }
        let line = WireLine(.sample(sample))
        for sink in sinks { _ = sink.deliver(line, kind: .sample(time: sample.time)) }
    }

    /// Tells the clients watching with `raw` of a gap in the source's samples (a replayed log's marker), in order
    /// with the samples. Only a gap whose count and span are known is a `gap` message; time going back needs
    /// none, a recording sees it.
    func publishGap(_ gap: SampleGap) {
        guard let count = gap.count, let first = gap.first, let last = gap.last else { return }
        let sinks = state.withLock { s in s.clients.values.filter(\.raw).map(\.sink) }
        guard !sinks.isEmpty else { return }
        let line = WireLine(.gap(.init(count: count, first: first, last: last)))
        for sink in sinks { _ = sink.deliver(line, kind: .gap) }
    }

    /// A raw sample was not sent to `id` (its queue was full): counted in its `status.client.dropped`.
    func rawSampleDropped(id: UInt64) {
        state.withLock { $0.clients[id]?.dropped &+= 1 }
    }

    /// A frame handed to `id`'s session was not written after all (raw samples waited before it).
    func frameNotSent(id: UInt64) {
        state.withLock { s in
            guard var client = s.clients[id] else { return }
            client.sent &-= min(client.sent, 1)
            client.dropped &+= 1
            client.pollInFlight = false
            s.clients[id] = client
        }
    }

    /// The sensor's `sensor` event for a client that starts watching while the source has ended (a replay that
    /// `finished`, a source `lost` for good): no sample will come, and the event that said so went out before it
    /// watched. `nil` while the source may still deliver.
    func endedSensorEvent() -> ServerMessage? {
        state.withLock { s in
            guard s.sensorState == .finished || s.sensorState == .lost else { return nil }
            return .sensor(.init(state: s.sensorState, reason: s.sensorReason))
        }
    }

    /// Records the sensor's state and tells every client, if it changed.
    func setSensorState(_ newState: SensorState, reason: String) {
        let changed = state.withLock { s -> Bool in
            guard s.sensorState != newState else { return false }
            s.sensorState = newState
            s.sensorReason = reason
            return true
        }
        if changed { broadcast(.sensor(.init(state: newState, reason: reason))) }
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

    /// Records the device's orientation and tilt and tells every client, if they changed.
    func setOrientation(_ orientation: WireOrientation) {
        let changed = state.withLock { s -> Bool in
            guard s.orientation != orientation else { return false }
            s.orientation = orientation
            return true
        }
        guard changed else { return }
        broadcast(.orientation(orientation))
        for observer in observers.withLock({ $0 }) { observer.orientationChanged(orientation) }
    }

    /// The device's orientation and tilt as last detected.
    var orientation: WireOrientation { state.withLock { $0.orientation } }

    func broadcast(_ message: ServerMessage) {
        let sinks = state.withLock { s in s.clients.values.map(\.sink) }
        let line = WireLine(message)
        for sink in sinks { _ = sink.deliver(line, kind: .event) }
    }

    // MARK: Tare and status

    /// What `tare` and its reset do: the motion service installs them, as it owns the pipeline.
    private struct TareActions {
        var tare: (@Sendable () -> Quaternion?)?
        var reset: (@Sendable () -> Quaternion?)?
    }

    /// Installs what `tare` does (set by the motion service).
    func setTareAction(_ action: @escaping @Sendable () -> Quaternion?) {
        tareActions.withLock { $0.tare = action }
    }

    /// Installs what `tare` with `reset` does (set by the motion service).
    func setResetTareAction(_ action: @escaping @Sendable () -> Quaternion?) {
        tareActions.withLock { $0.reset = action }
    }

    /// Re-centres the tilt; returns the new reference, or `nil` if there is no attitude yet (the first pose then
    /// becomes the reference).
    func tare() -> Quaternion? {
        let action = tareActions.withLock { $0.tare }
        return action?()
    }

    /// Undoes every tare: the tilt is relative to the first pose again; returns that pose, or `nil` if there is no
    /// attitude yet.
    func resetTare() -> Quaternion? {
        let action = tareActions.withLock { $0.reset }
        return action?()
    }

    /// The greeting a new client gets.
    var hello: ServerMessage {
        let (power, busy, sensor) = state.withLock { ($0.power, $0.busy, $0.sensorState) }
        return .hello(
            .init(
                protocol: WireProtocol.version, daemon: "tiltd \(WireProtocol.daemonVersion)",
                sensors: currentSensors(busy: busy).map(WireSensor.init), power: WirePower(power), sensor: sensor))
    }

    /// The status report for client `id`, whose session adds what only it knows.
    ///
    /// - Parameters:
    ///   - errors: Lines from the client that got an `error`.
    ///   - peer: The client's credentials, if the socket gave them.
    func status(id: UInt64, errors: UInt64, peer: PeerCredentials?, now: Double = monotonicSeconds()) -> StatusReport {
        var report = state.withLock { s in
            let me = s.clients[id]
            var client = StatusReport.Client(
                id: id, watching: me?.watching ?? false, rate: me?.rate, raw: me?.raw ?? false, sent: me?.sent ?? 0,
                dropped: me?.dropped ?? 0, errors: errors, uid: peer?.uid, pid: peer?.pid,
                screenRotation: me?.screenRotation.degrees ?? 0, magnetometer: me?.magnetometer)
            client.predict = (me?.predictMilliseconds).flatMap { $0 > 0 ? Double($0) / 1000 : nil }
            var report = StatusReport(
                daemon: "tiltd \(WireProtocol.daemonVersion)", protocol: WireProtocol.version, uptime: now - startTime,
                source: sourceName, sensor: s.sensorState, clients: s.clients.count,
                watchers: s.clients.values.count(where: \.watching), requestedRate: s.demand.rate,
                samples: s.samples, rejected: s.rejected, lastRejection: s.lastRejection,
                seq: s.lastSeq ?? s.latest?.seq,
                gyroBias: s.gyroBias.array, calibration: s.calibration, calibrated: s.calibrated,
                power: WirePower(s.power), client: client, filters: s.filters, orientation: s.orientation)
            report.sensorMode = currentSensors(busy: s.busy).first?.mode
            report.busy = s.busy.map { WireBusy($0, now: now) }
            return report
        }
        for observer in observers.withLock({ $0 }) { observer.addStatus(to: &report) }
        return report
    }

    /// Records which attitude filters run, for `status`.
    func setFilters(_ filters: [AttitudeReference]) {
        state.withLock { $0.filters = filters }
    }

    /// Replaces the calibration `status` reports (after a reload): the explanation and whether one applies.
    func setCalibration(_ explanation: String, applied: Bool) {
        state.withLock { s in
            s.calibration = explanation
            s.calibrated = applied
        }
    }

    /// Closes every client connection (at shutdown) and waits until they are closed.
    func closeAll() async {
        let sinks = state.withLock { s in s.clients.values.map(\.sink) }
        for sink in sinks { await sink.close() }
    }
}
