import Testing
import TiltCore
import TiltFusion
import TiltTestKit
import TiltWire

@testable import TiltDaemon

/// Issue 16 item 5 without a socket: the hub's demand says which attitudes are wanted, and the motion service's
/// filters run just those, one `seq` per sample, the tare carried into a filter that starts later.
@Suite struct FilterDemandTests {
    private func makeHub(main: AttitudeReference = .magnetic) -> Hub {
        Hub(sourceName: "replay:t", sensors: [], calibration: "none: test", calibrated: false, mainReference: main)
    }

    private func frame(_ seq: UInt64, _ reference: AttitudeReference) -> AttitudeFrame {
        var f = AttitudeFrame(
            seq: seq, time: Double(seq), quaternion: .identity, gravity: .zero, rotationRate: .zero,
            userAcceleration: .zero, tilt: .init(x: 0, y: 0), flags: .init(), source: "t")
        f.reference = reference
        return f
    }

    private func tipping() -> [MotionSample] { TippingLog.samples(duration: 8) }

    @Test("the demand names the attitudes wanted: 9D for default watchers and polls, 6D for magnetometer:false")
    func demandNamesTheAttitudes() async throws {
        let hub = makeHub()
        var demands = hub.demands.makeAsyncIterator()
        let six = try #require(hub.register(RecordingSink()))
        let nine = try #require(hub.register(RecordingSink()))
        hub.setWatch(id: six, enable: true, rate: 30, raw: false, magnetometer: false)
        #expect(await demands.next() == Demand(active: true, rate: 30, magnetic: false, game: true))
        hub.setWatch(id: nine, enable: true, rate: 30, raw: false)
        #expect(await demands.next() == Demand(active: true, rate: 30, magnetic: true, game: true))
        hub.setWatch(id: six, enable: false, rate: nil, raw: false)
        #expect(await demands.next() == Demand(active: true, rate: 30, magnetic: true, game: false))
        hub.setWatch(id: nine, enable: false, rate: nil, raw: false)
        #expect(await demands.next() == .idle)
        hub.setHolders(SensorProxyService.holder, count: 1)
        #expect(
            await demands.next() == Demand(active: true, rate: SensorProxyService.holder.leastRate),
            "a claim wants no attitude")
        #expect(hub.poll(id: nine) == nil)
        #expect(await demands.next() == Demand(active: true, rate: SensorProxyService.holder.leastRate, magnetic: true))
    }

    @Test("a default client's poll while only the 6D filter runs waits for the 9D frame, not the stale one")
    func aPollWaitsForTheMainFilter() throws {
        let hub = makeHub()
        let sink = RecordingSink()
        let id = try #require(hub.register(sink))
        hub.setSensorState(.active, reason: "test")
        hub.publish(frame(1, .magnetic), gyroBias: .zero, now: 1)
        hub.setFilters([.game])
        #expect(hub.poll(id: id) == nil, "the 9D frame kept from before is stale")
        hub.publish(frame(2, .game), gyroBias: .zero, now: 2)
        #expect(try sink.frameSeqs().isEmpty, "a 6D frame does not answer a default poll")
        hub.publish(frame(3, .magnetic), gyroBias: .zero, now: 3)
        #expect(try sink.frameSeqs() == [3])
        #expect(hub.status(id: id, errors: 0, peer: nil).samples == 3, "every fused sample counts, 6D-only ones too")
    }

    @Test("what runs: 6D alone for claims and 6D watchers, 9D while wanted, one filter on a 6D daemon")
    func whatRuns() {
        let nine = MotionService.Filters(configuration: .init(), main: .magnetic)
        #expect(nine.toRun([]) == [.game])
        #expect(nine.toRun([.game]) == [.game])
        #expect(nine.toRun([.magnetic]) == [.magnetic])
        #expect(nine.toRun([.game, .magnetic]) == [.magnetic, .game])
        let six = MotionService.Filters(configuration: .init(), main: .game)
        #expect(six.toRun([]) == [.game] && six.toRun([.game]) == [.game])
    }

    @Test("switching filters: one seq per sample, the running list reported on change")
    func seqAcrossSwitches() {
        var filters = MotionService.Filters(configuration: .init(), main: .magnetic)
        let plan: [(Set<AttitudeReference>, [AttitudeReference])] = [
            ([.game], [.game]), ([.game, .magnetic], [.magnetic, .game]), ([.magnetic], [.magnetic]), ([], [.game]),
        ]
        var seqs: [UInt64] = []
        var reports: [[AttitudeReference]] = []
        for (step, (wanted, expected)) in plan.enumerated() {
            for (i, sample) in tipping()[(step * 100)..<(step * 100 + 100)].enumerated() {
                let (frames, running) = filters.process(sample, source: "t", wanted: wanted)
                #expect(frames.map(\.reference) == expected.map { $0 })
                #expect(Set(frames.map(\.seq)).count == 1)
                seqs.append(frames[0].seq)
                if let running { reports.append(running) }
                if i == 0 { #expect(filters.running == expected) }
            }
        }
        #expect(seqs == Array(0..<400), "one seq per fused sample, whatever runs")
        #expect(reports == plan.map(\.1))
        filters.idle()
        let (frames, running) = filters.process(tipping()[400], source: "t", wanted: [.magnetic])
        #expect(frames.map(\.seq) == [400] && running == [.magnetic], "the count goes on after an idle sensor")
    }

    /// Runs `first` alone from the start, tares it at 0.3 s (flat), starts `second` beside it at 3 s (tipped), and
    /// returns the largest tilt difference between them over the next 2 s and the tilt the first shows then.
    private func join(_ first: AttitudeReference, then second: AttitudeReference) -> (gap: Double, tilt: Double) {
        var filters = MotionService.Filters(configuration: .init(), main: .magnetic)
        var gap = 0.0
        var tilt = 0.0
        for sample in tipping() where sample.time < 5 {
            let wanted: Set<AttitudeReference> = sample.time < 3 ? [first] : [first, second]
            let frames = filters.process(sample, source: "t", wanted: wanted).frames
            if abs(sample.time - 0.3) < 0.001 { _ = filters.tare() }
            guard frames.count == 2 else { continue }
            let a = frames.first { $0.reference == first }!.tilt
            let b = frames.first { $0.reference == second }!.tilt
            gap = max(gap, abs(a.x - b.x), abs(a.y - b.y))
            tilt = max(tilt, abs(a.x), abs(a.y))
        }
        return (gap, tilt)
    }

    /// A filter started later tilts from the tare the running one had; 0.02 rad: the synthetic sensor's noise
    /// (0.02 m/s², about 0.002 rad of inclination) and the new filter's settling, well under the 0.3 rad tip that
    /// a lost reference would show.
    @Test("a tare carries over to a filter started later, 9D beside 6D and 6D beside 9D")
    func tareCarriesOver() {
        for (first, second) in [(AttitudeReference.game, AttitudeReference.magnetic), (.magnetic, .game)] {
            let (gap, tilt) = join(first, then: second)
            #expect(tilt > 0.1, "\(first): the tare at the flat pose leaves the tip in the tilt: \(tilt) rad")
            #expect(gap < 0.02, "\(second) joining \(first): tilts differ by \(gap) rad")
        }
    }

    @Test("tare reset goes back to the first pose of the filter that ran first, for both")
    func resetGoesBackToTheElder() {
        var filters = MotionService.Filters(configuration: .init(), main: .magnetic)
        var last: [AttitudeFrame] = []
        for sample in tipping() where sample.time < 4 {
            let wanted: Set<AttitudeReference> = sample.time < 2 ? [.game] : [.game, .magnetic]
            last = filters.process(sample, source: "t", wanted: wanted).frames
            if abs(sample.time - 2.5) < 0.001 { _ = filters.tare() }
            if abs(sample.time - 3) < 0.001 { #expect(filters.resetTare() != nil) }
        }
        // The 6D filter started flat: after the reset both show the tip again.
        for frame in last {
            #expect(abs(frame.tilt.x) > 0.1 || abs(frame.tilt.y) > 0.1, "\(frame.reference!): \(frame.tilt)")
        }
        #expect(abs(last[0].tilt.x - last[1].tilt.x) < 0.02 && abs(last[0].tilt.y - last[1].tilt.y) < 0.02)
    }
}
