import Foundation
import Testing
import TiltCore
import TiltSensors
import TiltTestKit
import TiltWire

/// Issue 16 item 5 against a real `tiltd` fusing a magnetometer: the 9D and 6D filters run only while someone needs
/// each, `seq` counts fused samples whichever runs, and a tare holds for a filter that starts later.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct FilterSwitchTests {
    /// The frames `client` is sent over `seconds`, in the order they come.
    private func frames(of client: LineSocket, seconds: Double) -> [AttitudeFrame] {
        client.readLines(until: Deadline(seconds: seconds)).compactMap {
            if case .attitude(let frame)? = try? ServerMessage.decode(Array($0.utf8)) { frame } else { nil }
        }
    }

    /// Reads frames from each client in turn until each has `count` more (20 s at most, however loaded the machine).
    private func frames(of clients: [LineSocket], count: Int) -> [[AttitudeFrame]] {
        var collected = Array(repeating: [AttitudeFrame](), count: clients.count)
        let end = Deadline(seconds: 20)
        while !end.hasPassed, collected.contains(where: { $0.count < count }) {
            for (i, client) in clients.enumerated() { collected[i] += frames(of: client, seconds: 0.02) }
        }
        return collected
    }

    /// Asks `control` for `status` until its `filters` are `expected` (5 s at most); returns the last ones.
    private func awaitFilters(_ expected: [String], on control: LineSocket) throws -> [String]? {
        var filters: [String]?
        for _ in 0..<100 {
            filters = try control.status()?["filters"] as? [String]
            if filters == expected { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return filters
    }

    /// The replayed log's sample times, each with its place in the log.
    private static let logIndex: [Double: Int] = {
        let log = try? SensorLog.read(path: TestPaths.broadExcerpt)
        let places = (log?.samples ?? []).enumerated().map { (place, sample) in (sample.time, place) }
        return Dictionary(places, uniquingKeysWith: { first, _ in first })
    }()

    /// `seq` minus the frame's sample's place in the log, for each frame: one value for all of them means each
    /// fused sample was counted once, whichever filters ran (two filters each counting `seq` would make it grow).
    /// Which frames a 1000 Hz watcher is sent depends on the machine's load (a frame less than 1 ms after the last
    /// is skipped); this does not.
    private func offsets(_ frames: [AttitudeFrame]) -> Set<Int> {
        Set(frames.map { Int($0.seq) - (Self.logIndex[$0.time] ?? -1_000_000) })
    }

    @Test("6D watcher alone runs [game]; a 9D one joins: [magnetic, game]; the 6D one leaves: [magnetic]; seq runs on")
    func filtersFollowTheWatchers() throws {
        let dir = TestPaths.temporaryDirectory("filters-switch")
        defer { try? FileManager.default.removeItem(at: dir) }
        let daemon = try DaemonProcess.replaying(["--no-power"], in: dir)
        let (control, _) = try daemon.greetedClient()
        let (six, _) = try daemon.greetedClient()
        let (nine, _) = try daemon.greetedClient()
        try six.send(#"{"cmd":"watch","rate":1000,"magnetometer":false}"#)
        #expect(try awaitFilters(["game"], on: control) == ["game"], "a 6D watcher alone runs the 6D filter alone")
        var sixSeen = frames(of: [six], count: 50)[0]

        try nine.send(#"{"cmd":"watch","rate":1000}"#)
        #expect(try awaitFilters(["magnetic", "game"], on: control) == ["magnetic", "game"])
        let both = frames(of: [six, nine], count: 50)
        sixSeen += both[0]
        var nineSeen = both[1]

        try six.send(#"{"cmd":"watch","enable":false}"#)
        #expect(try awaitFilters(["magnetic"], on: control) == ["magnetic"], "the 6D filter stops with its watcher")
        sixSeen += frames(of: six, seconds: 0.1)
        nineSeen += frames(of: [nine], count: 50)[0]

        #expect(sixSeen.allSatisfy { $0.reference == .game } && nineSeen.allSatisfy { $0.reference == .magnetic })
        #expect(sixSeen.count >= 100 && nineSeen.count >= 100, "\(sixSeen.count) 6D, \(nineSeen.count) 9D frames")
        #expect(Self.logIndex.count == 17_143, "the replayed log's samples")
        let offsets = offsets(sixSeen + nineSeen)
        #expect(
            offsets.count == 1, "seq against the log's sample order, across the 9D filter's start and the 6D's stop")
        #expect(offsets.allSatisfy { $0 > -1_000_000 }, "every frame's time is a sample of the log")
        let status = try #require(try control.status())
        let (samples, seq) = (status["samples"] as? Int, status["seq"] as? Int)
        #expect(samples != nil && seq == samples.map { $0 - 1 }, "one seq per fused sample: \(status)")
    }

    @Test("a default client's poll on a daemon running only the 6D filter gets a 9D frame")
    func aPollGetsTheMagneticAttitude() throws {
        let dir = TestPaths.temporaryDirectory("filters-poll")
        defer { try? FileManager.default.removeItem(at: dir) }
        let daemon = try DaemonProcess.replaying(["--no-power"], in: dir)
        let (six, _) = try daemon.greetedClient()
        let (poller, _) = try daemon.greetedClient()
        try six.send(#"{"cmd":"watch","rate":30,"magnetometer":false}"#)
        #expect(try awaitFilters(["game"], on: poller) == ["game"])
        let answer = try #require(try poller.request(#"{"cmd":"poll"}"#, expecting: "attitude", timeout: 10))
        #expect(answer["reference"] as? String == "magnetic", "\(answer)")
        #expect(try awaitFilters(["game"], on: poller) == ["game"], "the 9D filter stops once the poll is answered")
    }

    /// The tare is taken flat, the 9D watcher joins tipped: its tilt must be the 6D one's (the tip, 0.3 rad), where a
    /// reference lost in the start would show 0. 0.02 rad: the synthetic sensor's noise (0.02 m/s², about 0.002 rad
    /// of inclination) and the new filter's settling, far under the 0.3 rad a lost tare shows.
    @Test("a tare taken while only the 6D filter runs holds for the 9D filter that starts after it")
    func tareHoldsAcrossAFilterStart() throws {
        let dir = TestPaths.temporaryDirectory("filters-tare")
        defer { try? FileManager.default.removeItem(at: dir) }
        let daemon = try DaemonProcess.replaying(["--no-power"], log: try TippingLog.write(in: dir), in: dir)
        let (control, _) = try daemon.greetedClient()
        let (six, _) = try daemon.greetedClient()
        let (nine, _) = try daemon.greetedClient()
        try six.send(#"{"cmd":"watch","rate":1000,"magnetometer":false}"#)
        var seen: [AttitudeFrame] = []
        while seen.last.map({ $0.time < 0.1 }) ?? true { seen += frames(of: six, seconds: 0.02) }
        #expect(try #require(seen.last).time < 0.4, "still flat when the tare is asked")
        _ = try #require(try control.request(#"{"cmd":"tare"}"#, expecting: "tare"))
        while try #require(seen.last).time < 2 { seen += frames(of: six, seconds: 0.05) }
        #expect(try awaitFilters(["game"], on: control) == ["game"])

        try nine.send(#"{"cmd":"watch","rate":1000}"#)
        let both = frames(of: [six, nine], count: 200)
        let sixBySeq = Dictionary(both[0].map { ($0.seq, $0) }, uniquingKeysWith: { a, _ in a })
        var gap = 0.0
        var tip = 0.0
        var compared = 0
        for frame in both[1] {
            guard let other = sixBySeq[frame.seq] else { continue }
            compared += 1
            gap = max(gap, abs(frame.tilt.x - other.tilt.x), abs(frame.tilt.y - other.tilt.y))
            tip = max(tip, abs(other.tilt.x), abs(other.tilt.y))
        }
        #expect(compared >= 50, "\(compared) frames of both filters")
        #expect(tip > 0.1, "the tare at the flat pose leaves the tip in the 6D tilt: \(tip) rad")
        #expect(gap < 0.02, "the 9D tilt from its first frame follows the tare: \(gap) rad from the 6D tilt")
    }
}
