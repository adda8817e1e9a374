import Foundation
import Synchronization
import Testing
import TiltCore
import TiltSensors
import TiltTestKit

@Suite struct LogReplaySourceTests {
    private final class Events: Sendable {
        let list = Mutex<[MotionSourceEvent]>([])
        func add(_ e: MotionSourceEvent) { list.withLock { $0.append(e) } }
        var all: [MotionSourceEvent] { list.withLock { $0 } }
        var samples: [MotionSample] {
            all.compactMap { if case .sample(let s) = $0 { s } else { nil } }
        }
    }

    private func log(rows: Int, badRow: Int? = nil) throws -> (URL, String) {
        let dir = TestPaths.temporaryDirectory("tiltreplay")
        var text = "t,gyr_x,gyr_y,gyr_z,acc_x,acc_y,acc_z\n"
        for i in 0..<rows { text += i == badRow ? "\(Double(i) * 0.01),0,0\n" : "\(Double(i) * 0.01),0,0,0,0,0,9.8\n" }
        let path = dir.appendingPathComponent("r.csv").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return (dir, path)
    }

    /// Waits until `events` holds `count` samples; fails (instead of hanging) after 10 s, with what arrived.
    private func waitFor(_ count: Int, samples events: Events) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while events.samples.count < count {
            if ContinuousClock.now > deadline {
                Issue.record("waited 10 s for \(count) samples; got \(events.all)")
                throw CancellationError()
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    @Test func replaysAtSpeedAndSkipsBadRows() async throws {
        let (dir, path) = try log(rows: 100, badRow: 10)
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = try LogReplaySource(configuration: .init(path: path, speed: 10))
        let events = Events()
        let clock = ContinuousClock()
        let elapsed = try await clock.measure {
            try await source.run(rate: nil) { events.add($0) }
        }
        #expect(events.samples.count == 99)
        #expect(events.all.contains { if case .rejected(let r) = $0 { r.contains("r.csv:12") } else { false } })
        #expect(events.all.last == .sensor(.finished, reason: "end of \(path)"))
        // 0.99 s of log at 10× takes about 0.1 s: never less (it is paced), and well under real time even on a
        // loaded machine.
        #expect(elapsed > .milliseconds(80) && elapsed < .milliseconds(1_500), "\(elapsed)")
    }

    @Test func loopKeepsTimeIncreasing() async throws {
        let (dir, path) = try log(rows: 20)
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = try LogReplaySource(configuration: .init(path: path, speed: 100, loop: true))
        let events = Events()
        let task = Task { try await source.run(rate: nil) { events.add($0) } }
        try await waitFor(70, samples: events)
        task.cancel()
        _ = try await task.value
        let times = events.samples.map(\.time)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
        #expect(times.last! > 0.5)
    }

    @Test func resumesWhereItStopped() async throws {
        // 60 s of log, so a slow machine cannot reach its end before the test stops the first run.
        let (dir, path) = try log(rows: 6000)
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = try LogReplaySource(configuration: .init(path: path, speed: 1))
        let first = Events()
        let task = Task { try await source.run(rate: nil) { first.add($0) } }
        try await waitFor(5, samples: first)
        task.cancel()
        _ = try await task.value
        let second = Events()
        let task2 = Task { try await source.run(rate: nil) { second.add($0) } }
        try await waitFor(3, samples: second)
        task2.cancel()
        _ = try await task2.value
        let last = try #require(first.samples.last?.time)
        let next = try #require(second.samples.first?.time)
        #expect(abs(next - (last + 0.01)) < 1e-9, "the second run starts with the sample after the first run's last")
    }

    @Test func dropsMagnetometerFor6D() async throws {
        let source = try LogReplaySource(
            configuration: .init(path: TestPaths.broadExcerpt, speed: 1000, useMagnetometer: false))
        #expect(source.sensors.first?.kinds == ["accel", "anglvel"])
        let events = Events()
        let task = Task { try await source.run(rate: nil) { events.add($0) } }
        try await waitFor(10, samples: events)
        task.cancel()
        _ = try await task.value
        #expect(events.samples.allSatisfy { $0.mag == nil })
    }
}
