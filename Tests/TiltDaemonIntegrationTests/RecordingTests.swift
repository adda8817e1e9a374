import Foundation
import Synchronization
import Testing
import TiltCore
import TiltSensors
import TiltTestKit
import TiltTools

/// `tilt record`'s state machine, run against a real tiltd replaying the bundled log, and against no daemon at all.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct RecordingTests {
    /// What a recording said, in order.
    final class Said: Sendable {
        private let texts = Mutex<[String]>([])
        func append(_ text: String) { texts.withLock { $0.append(text) } }
        var all: String { texts.withLock { $0.joined() } }
    }

    /// The samples of the log at `path`, up to the first row that cannot be read (a line still being written).
    private func samples(_ path: String) -> [MotionSample] {
        guard let reader = try? SensorLogReader(path: path) else { return [] }
        var samples: [MotionSample] = []
        while let row = try? reader.next() { samples.append(row.sample) }
        return samples
    }

    @Test func throughTiltdTheLogHoldsTheRawSamplesWithTheDaemonsSensors() async throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let daemon = try DaemonProcess.replaying(["--speed", "5"], in: dir)
        defer { daemon.stop() }
        let log = dir.appendingPathComponent("rec.csv").path
        let said = Said()
        let recording = Recording(
            source: .daemon(socketPath: daemon.socketPath ?? ""), log: log, output: "out.csv", say: said.append)
        try recording.start()
        // Until some samples are written (flushed every half second), then a little more.
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline && !recording.failed {
            if samples(log).count >= 200 { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        let (outcome, sourceError) = await recording.finish()
        #expect(sourceError == nil)
        #expect(outcome.failure == nil, "\(said.all)")
        #expect(outcome.opened)
        #expect(outcome.rows >= 200)
        #expect(said.all.contains("recording from "), "\(said.all)")
        let recorded = samples(log)
        #expect(recorded.count == outcome.rows, "every appended sample is in the closed log")
        #expect(zip(recorded, recorded.dropFirst()).allSatisfy { $0.time < $1.time }, "in time order")
        let source = try SensorLogReader(path: log).metadata["source"] ?? ""
        #expect(source.contains("at \(daemon.socketPath ?? "")"), "\(source)")
    }

    @Test func withNoDaemonItFailsAfterTheGraceWithTheCauseAndOpensNoLog() async throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("rec.csv").path
        let recording = Recording(
            source: .daemon(socketPath: dir.appendingPathComponent("none.sock").path), log: log, output: "out.csv",
            say: { _ in })
        try recording.start()
        let began = ContinuousClock.now
        while !recording.failed && ContinuousClock.now - began < .seconds(30) {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(recording.failed)
        #expect(ContinuousClock.now - began >= Recording.startGrace, "a daemon just started gets the grace")
        let (outcome, _) = await recording.finish()
        #expect(!outcome.opened)
        #expect(outcome.rows == 0)
        #expect(outcome.failure?.hasPrefix("cannot record through tiltd: ") == true, "\(outcome.failure ?? "")")
        #expect(!FileManager.default.fileExists(atPath: log))
    }

    @Test func stoppedBeforeAnySampleSaysSo() async throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let recording = Recording(
            source: .daemon(socketPath: dir.appendingPathComponent("none.sock").path),
            log: dir.appendingPathComponent("rec.csv").path, output: "out.csv", say: { _ in })
        try recording.start()
        let (outcome, _) = await recording.finish()
        #expect(!outcome.opened)
        #expect(outcome.failure != nil, "nothing recorded is never a success")
    }

    @Test("a recording across a daemon restart marks the gap, and fusing it does not freeze or fuse across it")
    func acrossADaemonRestartTheLogHasAGap() async throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = try DaemonProcess.replaying(["--speed", "5"], in: dir)
        let log = dir.appendingPathComponent("rec.csv").path
        let said = Said()
        let recording = Recording(
            source: .daemon(socketPath: first.socketPath ?? ""), log: log, output: "out.csv", say: said.append)
        try recording.start()
        var deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline && !recording.failed && samples(log).count < 300 {
            try await Task.sleep(for: .milliseconds(50))
        }
        first.stop()
        // The same socket, a new daemon: its replay starts over at the log's first time.
        let second = try DaemonProcess.replaying(["--speed", "5"], in: dir)
        defer { second.stop() }
        // Until 300 of the new daemon's samples are in: the first daemon's may still be arriving (queued in tiltd,
        // the socket or the writer on a busy machine), so wait for the new clock, not for a count.
        func sinceTheRestart(_ s: [MotionSample]) -> Int {
            guard let i = s.indices.dropFirst().first(where: { s[$0].time < s[$0 - 1].time }) else { return 0 }
            return s.count - i
        }
        deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline && !recording.failed && sinceTheRestart(samples(log)) < 300 {
            try await Task.sleep(for: .milliseconds(50))
        }
        let (outcome, _) = await recording.finish()
        #expect(outcome.failure == nil, "\(said.all)")
        #expect(outcome.gaps == 1 && outcome.reconnections == 1, "\(said.all)")
        let recorded = try SensorLog.read(path: log)
        let (index, gap) = try #require(recorded.gaps.first)
        #expect(recorded.gaps.count == 1)
        #expect(gap.reason?.contains("reconnected to tiltd") == true, "\(gap)")
        #expect(recorded.samples[index].time < recorded.samples[index - 1].time, "the new daemon's clock started over")
        var text = ""
        try FusedCSV.fuse(recorded.samples, gaps: recorded.gaps, useMagnetometer: true, name: "t") { text += $0 }
        let quaternions = text.split(separator: "\n").dropFirst().dropFirst(index).map {
            $0.split(separator: ",")[1...4].joined(separator: ",")
        }
        #expect(Set(quaternions).count > quaternions.count / 2, "the attitude after the restart is fused, not frozen")
    }
}
