import Testing
import TiltCore
import TiltWire

@testable import TiltDaemon

/// A raw watcher's queue, without a channel: nothing dropped while it has room, the dropped ones counted and told
/// by one `gap` line exactly where they are missing, events kept in order behind samples.
@Suite struct RawBacklogTests {
    private func sample(_ t: Double) -> WireLine {
        WireLine(.sample(MotionSample(time: t, gyro: .zero, accel: Vector3(0, 0, 9.8))))
    }

    private func drain(_ backlog: inout RawBacklog) -> [String] {
        var out: [String] = []
        while let line = backlog.next() { out.append(line.json) }
        return out
    }

    @Test func samplesBeyondTheBoundBecomeOneGapWhereTheyAreMissing() {
        var backlog = RawBacklog()
        #expect(backlog.offer(sample: sample(1), time: 1, capacity: 2) == .queued)
        #expect(backlog.offer(sample: sample(2), time: 2, capacity: 2) == .queued)
        #expect(backlog.offer(sample: sample(3), time: 3, capacity: 2) == .dropped)
        #expect(backlog.offer(sample: sample(4), time: 4, capacity: 2) == .dropped)
        #expect(backlog.next() == sample(1))
        // Room again: the gap goes first, then the new sample.
        #expect(backlog.offer(sample: sample(5), time: 5, capacity: 2) == .queued)
        #expect(
            drain(&backlog) == [
                sample(2).json, #"{"class":"gap","count":2,"first":3.0,"last":4.0}"#, sample(5).json,
            ])
        #expect(backlog.isEmpty)
    }

    @Test func aGapIsToldWhenTheQueueEmptiesEvenWithNoSampleAfterIt() {
        var backlog = RawBacklog()
        #expect(backlog.offer(sample: sample(1), time: 1, capacity: 0) == .dropped)
        #expect(!backlog.isEmpty)
        #expect(drain(&backlog) == [#"{"class":"gap","count":1,"first":1.0,"last":1.0}"#])
    }

    @Test func eventsKeepTheirPlaceBehindSamples() {
        var backlog = RawBacklog()
        _ = backlog.offer(sample: sample(1), time: 1, capacity: 1)
        _ = backlog.offer(sample: sample(2), time: 2, capacity: 1)
        let finished = WireLine(.sensor(.init(state: .finished, reason: "end")))
        let taken = backlog.offer(line: finished)
        #expect(taken)
        #expect(
            drain(&backlog) == [sample(1).json, #"{"class":"gap","count":1,"first":2.0,"last":2.0}"#, finished.json])
    }
}
