import Synchronization
import Testing
import TiltCore
import TiltWire

@testable import TiltDaemon

/// A client as the hub sees it, recording what it is handed; `full` makes it refuse lines as a stalled client does.
final class RecordingSink: ClientSink {
    private let state = Mutex<(lines: [(WireLine, Delivery)], full: Bool, closed: Bool)>(([], false, false))

    var full: Bool {
        get { state.withLock { $0.full } }
        set { state.withLock { $0.full = newValue } }
    }

    func deliver(_ line: WireLine, kind: Delivery) -> Bool {
        state.withLock { s in
            guard !s.full else { return false }
            s.lines.append((line, kind))
            return true
        }
    }

    func close() async {
        state.withLock { $0.closed = true }
    }

    var closed: Bool { state.withLock { $0.closed } }

    /// The messages handed over, decoded, with their kinds.
    func messages() throws -> [(ServerMessage, Delivery)] {
        try state.withLock { $0.lines }.map { (try #require(try ServerMessage.decode(Array($0.json.utf8))), $1) }
    }

    /// The sequence numbers of the frames handed over.
    func frameSeqs() throws -> [UInt64] {
        try messages().compactMap { if case .attitude(let f) = $0.0 { f.seq } else { nil } }
    }
}

/// The hub without NIO: who gets which frame and event, and what `status` says.
@Suite struct HubTests {
    private func makeHub(calibration: String = "none: no file matched", calibrated: Bool = false) -> Hub {
        Hub(
            sourceName: "replay:test.csv",
            sensors: [SensorDescription(name: "imu", kinds: ["accel"], location: "/x", rateHz: 100, mode: "replay")],
            calibration: calibration, calibrated: calibrated)
    }

    private func frame(_ seq: UInt64) -> AttitudeFrame {
        AttitudeFrame(
            seq: seq, time: Double(seq) / 100, quaternion: .identity, gravity: Vector3(0, 0, -9.8),
            rotationRate: .zero, userAcceleration: .zero, tilt: .zero, flags: .init(), source: "replay:test.csv")
    }

    /// Publishes frames 1...count at 100 Hz on the hub's clock, starting at `start` seconds.
    private func publish(_ hub: Hub, count: UInt64, from first: UInt64 = 1, start: Double = 100) {
        for seq in first..<(first + count) {
            hub.publish(frame(seq), gyroBias: .zero, now: start + Double(seq - first) / 100)
        }
    }

    @Test func eachWatcherGetsFramesAtItsOwnRate() throws {
        let hub = makeHub()
        let fast = RecordingSink()
        let slow = RecordingSink()
        let idle = RecordingSink()
        let f = try #require(hub.register(fast))
        let s = try #require(hub.register(slow))
        _ = try #require(hub.register(idle))
        hub.setWatch(id: f, enable: true, rate: 50, raw: false)
        hub.setWatch(id: s, enable: true, rate: 10, raw: false)
        publish(hub, count: 100)
        #expect(try fast.frameSeqs().count == 50)
        #expect(try slow.frameSeqs().count == 10)
        #expect(try slow.frameSeqs().prefix(2) == [1, 11])
        #expect(try idle.frameSeqs().isEmpty)
        #expect(hub.status(id: f, errors: 0, peer: nil).requestedRate == 50)
    }

    @Test func theLatestWatchWinsAndEnableFalseStops() throws {
        let hub = makeHub()
        let sink = RecordingSink()
        let id = try #require(hub.register(sink))
        hub.setWatch(id: id, enable: true, rate: 10, raw: false)
        hub.setWatch(id: id, enable: true, rate: 100, raw: false)
        publish(hub, count: 10)
        #expect(try sink.frameSeqs() == Array(1...10))
        hub.setWatch(id: id, enable: false, rate: nil, raw: false)
        publish(hub, count: 10, from: 11, start: 200)
        #expect(try sink.frameSeqs() == Array(1...10))
        #expect(hub.expectsFrames(id: id) == false)
        let me = hub.status(id: id, errors: 0, peer: nil).client
        #expect(!me.watching && me.rate == nil && me.sent == 10)
    }

    @Test func demandFollowsTheWatchersAndPolls() async throws {
        let hub = makeHub()
        var demands = hub.demands.makeAsyncIterator()
        let a = try #require(hub.register(RecordingSink()))
        hub.setWatch(id: a, enable: true, rate: 30, raw: false)
        #expect(await demands.next() == Demand(active: true, rate: 30, magnetic: true))
        hub.setWatch(id: a, enable: false, rate: nil, raw: false)
        #expect(await demands.next() == .idle)
        #expect(hub.poll(id: a) == nil, "no frame yet: the poll waits for the next one")
        #expect(await demands.next() == Demand(active: true, rate: nil, magnetic: true))
        hub.unregister(id: a)
        #expect(await demands.next() == .idle)
    }

    @Test func claimsRunTheSensorLikeAWatcherAtLeastAtTheClaimRate() async throws {
        let hub = makeHub()
        var demands = hub.demands.makeAsyncIterator()
        hub.setHolders(SensorProxyService.holder, count: 1)
        #expect(await demands.next() == Demand(active: true, rate: SensorProxyService.holder.leastRate))
        let a = try #require(hub.register(RecordingSink()))
        hub.setWatch(id: a, enable: true, rate: 60, raw: false)
        #expect(await demands.next() == Demand(active: true, rate: 60, magnetic: true))
        hub.setWatch(id: a, enable: false, rate: nil, raw: false)
        #expect(await demands.next() == Demand(active: true, rate: SensorProxyService.holder.leastRate))
        hub.setHolders(SensorProxyService.holder, count: 0)
        #expect(await demands.next() == .idle)
    }

    @Test func eachHolderRunsTheSensorAtItsLeastRateAndTheFastestWins() async throws {
        let hub = makeHub()
        var demands = hub.demands.makeAsyncIterator()
        hub.setHolders(SensorProxyService.holder, count: 2)
        #expect(await demands.next() == Demand(active: true, rate: 20))
        hub.setHolders(DSUServerService.holder, count: 1)
        #expect(await demands.next() == Demand(active: true, rate: 250), "a DSU subscriber wants emulators' rate")
        hub.setHolders(DSUServerService.holder, count: 0)
        #expect(await demands.next() == Demand(active: true, rate: 20))
        hub.setHolders(SensorProxyService.holder, count: 0)
        #expect(await demands.next() == .idle)
    }

    @Test func anOrientationChangeGoesToEveryClientOnceAndIntoStatus() throws {
        let hub = makeHub()
        let (sink, other) = (RecordingSink(), RecordingSink())
        let a = try #require(hub.register(sink))
        _ = try #require(hub.register(other))
        let observer = RecordingObserver()
        hub.attach(observer)
        let leftUp = WireOrientation(.leftUp, .vertical)
        hub.setOrientation(leftUp)
        hub.setOrientation(leftUp)
        for s in [sink, other] {
            let events = try s.messages().filter { if case .orientation = $0.0 { true } else { false } }
            #expect(events.map(\.0) == [.orientation(leftUp)] && events.allSatisfy { $0.1 == .event })
        }
        let orientations = observer.orientations.withLock { $0 }
        #expect(orientations == [leftUp])
        #expect(hub.status(id: a, errors: 0, peer: nil).orientation == leftUp)
    }

    @Test("an attached observer is told every fused sample and adds to status, until it is detached")
    func observersFollowTheHubUntilDetached() throws {
        let hub = makeHub()
        let id = try #require(hub.register(RecordingSink()))
        let observer = RecordingObserver()
        #expect(hub.status(id: id, errors: 0, peer: nil).dsu == nil)
        hub.attach(observer)
        let sample = MotionSample(time: 1, gyro: .zero, accel: Vector3(0, 0, 9.8))
        hub.publishMotion(sample, rotationRate: .zero)
        hub.publishMotion(sample, rotationRate: .zero)
        let told = observer.samples.withLock(\.count)
        #expect(told == 2)
        #expect(hub.status(id: id, errors: 0, peer: nil).dsu?.subscribers == 2, "its part of status")
        hub.detach(observer)
        hub.publishMotion(sample, rotationRate: .zero)
        hub.setOrientation(WireOrientation(.leftUp, .vertical))
        let (samples, orientations) = (observer.samples.withLock(\.count), observer.orientations.withLock { $0 })
        #expect(samples == 2)
        #expect(orientations.isEmpty)
        #expect(hub.status(id: id, errors: 0, peer: nil).dsu == nil)
    }

    @Test func aPollIsAnsweredNowOrWithTheNextFrame() throws {
        let hub = makeHub()
        let sink = RecordingSink()
        let id = try #require(hub.register(sink))
        #expect(hub.poll(id: id) == nil)
        #expect(hub.expectsFrames(id: id))
        publish(hub, count: 3)
        #expect(try sink.frameSeqs() == [1], "the waiting poll gets the next frame, and only that one")
        #expect(try sink.messages().map(\.1) == [.frame(answersPoll: true)])
        #expect(hub.expectsFrames(id: id), "until the session has written the answer, it must stay open for it")
        hub.pollAnswered(id: id)
        #expect(!hub.expectsFrames(id: id))
        hub.setSensorState(.active, reason: "test")
        #expect(hub.poll(id: id)?.seq == 3, "once the sensor runs, a poll gets the latest frame at once")
    }

    @Test func rawWatchersGetSamples() throws {
        let hub = makeHub()
        let raw = RecordingSink()
        let plain = RecordingSink()
        hub.setWatch(id: try #require(hub.register(raw)), enable: true, rate: 1, raw: true)
        hub.setWatch(id: try #require(hub.register(plain)), enable: true, rate: 1, raw: false)
        hub.publishRaw(MotionSample(time: 1, gyro: .zero, accel: Vector3(0, 0, 9.8), mag: nil))
        #expect(try raw.messages().map(\.1) == [.sample(time: 1)])
        #expect(try plain.messages().isEmpty)
    }

    @Test func sensorAndPowerChangesGoToEveryClientOnce() throws {
        let hub = makeHub()
        let sinks = [RecordingSink(), RecordingSink()]
        for sink in sinks { _ = try #require(hub.register(sink)) }
        hub.setSensorState(.finished, reason: "end of test.csv")
        hub.setSensorState(.finished, reason: "again")
        let battery = PowerState(onBattery: true, capacity: 30, profile: "balanced")
        hub.setPower(battery)
        hub.setPower(battery)
        for sink in sinks {
            let messages = try sink.messages()
            #expect(messages.map(\.1) == [.event, .event])
            #expect(messages.first?.0 == .sensor(.init(state: .finished, reason: "end of test.csv")))
            #expect(messages.last?.0 == .power(battery))
        }
        guard case .hello(let hello) = hub.hello else {
            Issue.record("hello is not a hello")
            return
        }
        #expect(hello.power == WirePower(battery) && hello.sensors.map(\.name) == ["imu"])
    }

    @Test func framesAClientCannotTakeAreCountedAsDropped() throws {
        let hub = makeHub()
        let sink = RecordingSink()
        let id = try #require(hub.register(sink))
        hub.setWatch(id: id, enable: true, rate: 100, raw: false)
        publish(hub, count: 4)
        sink.full = true
        publish(hub, count: 6, from: 5, start: 101)
        let me = hub.status(id: id, errors: 0, peer: nil).client
        #expect(me.sent == 4 && me.dropped == 6)
        #expect(hub.unregister(id: id)! == (sent: 4, dropped: 6))
    }

    @Test func aPollAnswerTheClientCannotTakeIsDroppedAndNothingMoreIsOwed() throws {
        let hub = makeHub()
        let sink = RecordingSink()
        let id = try #require(hub.register(sink))
        #expect(hub.poll(id: id) == nil)
        sink.full = true
        publish(hub, count: 1)
        #expect(!hub.expectsFrames(id: id), "a dropped answer is not on its way: a half-closed session may end")
        #expect(hub.status(id: id, errors: 0, peer: nil).client.dropped == 1)
    }

    @Test func statusIsCompleteForTheAskingClient() throws {
        let hub = makeHub(calibration: "/etc/tilt/imu.calib: matched", calibrated: true)
        let id = try #require(hub.register(RecordingSink()))
        _ = try #require(hub.register(RecordingSink()))
        hub.setWatch(id: id, enable: true, rate: 2000, raw: true)
        hub.reject(reason: "row 7: not a number")
        hub.publish(frame(41), gyroBias: Vector3(0.01, 0, 0), now: 5)
        let peer = PeerCredentials(uid: 1000, gid: 1000, pid: 4242)
        let status = hub.status(id: id, errors: 3, peer: peer, now: hub.startTime + 9)
        #expect(status.source == "replay:test.csv" && status.sensor == .idle)
        #expect(status.clients == 2 && status.watchers == 1)
        #expect(status.requestedRate == WireProtocol.maxRate, "a rate over the cap is granted at the cap")
        #expect(status.samples == 1 && status.seq == 41 && status.gyroBias == [0.01, 0, 0])
        #expect(status.rejected == 1 && status.lastRejection == "row 7: not a number")
        #expect(status.calibrated && status.calibration == "/etc/tilt/imu.calib: matched")
        // (startTime + 9) − startTime is 9 only to within the rounding of the clock's value, which grows with uptime.
        #expect(abs(status.uptime - 9) < 1e-6)
        #expect(
            status.client
                == .init(
                    id: id, watching: true, rate: WireProtocol.maxRate, raw: true, sent: 1, dropped: 0, errors: 3,
                    uid: 1000, pid: 4242, screenRotation: 0))
        hub.setCalibration("none: disabled by --no-calibration", applied: false)
        #expect(!hub.status(id: id, errors: 0, peer: nil).calibrated)
    }

    @Test func tareRunsTheInstalledActionAndTheClientLimitHolds() async throws {
        let hub = makeHub()
        #expect(hub.tare() == nil, "nothing installed yet: no attitude")
        let reference = Quaternion(axis: .unitX, angle: 0.2)
        hub.setTareAction { reference }
        #expect(hub.tare() == reference)
        let sink = RecordingSink()
        #expect(hub.register(sink, limit: 1) != nil)
        #expect(hub.register(RecordingSink(), limit: 1) == nil, "one client over the limit is turned away")
        await hub.closeAll()
        #expect(sink.closed)
    }
}

/// A hub observer that keeps what it is told, as the sensor proxy and the DSU server are told it.
private final class RecordingObserver: HubObserver {
    let orientations = Mutex<[WireOrientation]>([])
    let samples = Mutex<[MotionSample]>([])

    func orientationChanged(_ orientation: WireOrientation) {
        orientations.withLock { $0.append(orientation) }
    }

    func fused(_ sample: MotionSample, rotationRate: Vector3) {
        samples.withLock { $0.append(sample) }
    }

    func addStatus(to report: inout StatusReport) {
        report.dsu = WireDSU(
            listen: "observed", subscribers: samples.withLock(\.count), sent: 0, received: 0, dropped: [:])
    }
}
