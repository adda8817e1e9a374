import Foundation
import Testing
import TiltCore
import TiltTestKit
import TiltWire

/// Issue 16 item 5 against a real `tiltd` fusing a magnetometer: the 9D and 6D filters run only while someone needs
/// each, `seq` counts fused samples whichever runs, and a tare holds for a filter that starts later.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct FilterSwitchTests {
    /// The frames `client` is sent over `seconds`, in the order they come.
    private func frames(of client: LineSocket, seconds: Double) -> [AttitudeFrame] {
        client.readLines(until: Date().addingTimeInterval(seconds)).compactMap {
            if case .attitude(let frame)? = try? ServerMessage.decode(Array($0.utf8)) { frame } else { nil }
        }
    }

    /// Reads frames from each client in turn for `seconds`.
    private func frames(of clients: [LineSocket], seconds: Double) -> [[AttitudeFrame]] {
        var collected = Array(repeating: [AttitudeFrame](), count: clients.count)
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
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

    /// Whether `seqs` rise with no repeat and most steps of one: a watcher at 1000 Hz is not sent a frame that
    /// comes less than 1 ms after the one it was sent (the replay hands some samples over that close: 1–2 % of them
    /// on a quiet machine, 5 % and more on a loaded one), so some samples are skipped. Two filters each counting
    /// `seq` would make every step 2 or more; fewer than a quarter of skipped samples rules that out whatever the
    /// load. Every sample's `seq` is checked by `status` (`seq` = `samples` - 1).
    private func rising(_ seqs: [UInt64]) -> Bool {
        let steps = zip(seqs, seqs.dropFirst()).map { Int($1) - Int($0) }
        return steps.allSatisfy { $0 >= 1 } && steps.reduce(0) { $0 + $1 - 1 } * 4 < steps.count
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
        var sixSeen = frames(of: six, seconds: 0.5)

        try nine.send(#"{"cmd":"watch","rate":1000}"#)
        #expect(try awaitFilters(["magnetic", "game"], on: control) == ["magnetic", "game"])
        let both = frames(of: [six, nine], seconds: 0.5)
        sixSeen += both[0]
        var nineSeen = both[1]

        try six.send(#"{"cmd":"watch","enable":false}"#)
        #expect(try awaitFilters(["magnetic"], on: control) == ["magnetic"], "the 6D filter stops with its watcher")
        sixSeen += frames(of: six, seconds: 0.1)
        nineSeen += frames(of: nine, seconds: 0.5)

        #expect(sixSeen.allSatisfy { $0.reference == .game } && nineSeen.allSatisfy { $0.reference == .magnetic })
        let sixSeqs = sixSeen.map(\.seq)
        let nineSeqs = nineSeen.map(\.seq)
        #expect(sixSeqs.count > 100 && nineSeqs.count > 100, "\(sixSeqs.count) 6D, \(nineSeqs.count) 9D frames")
        #expect(rising(sixSeqs), "the 6D watcher's seq across the 9D filter's start: \(sixSeqs)")
        #expect(rising(nineSeqs), "the 9D watcher's seq across the 6D filter's stop: \(nineSeqs)")
        let status = try #require(try control.status())
        let (samples, seq) = (status["samples"] as? Int, status["seq"] as? Int)
        #expect(samples != nil && seq == samples.map { $0 - 1 }, "one seq per fused sample: \(status)")
        let firstNine = try #require(nineSeqs.first)
        #expect(sixSeqs.contains(firstNine), "both filters number the sample they share alike")
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
        let both = frames(of: [six, nine], seconds: 1)
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
        #expect(compared > 100, "\(compared) frames of both filters")
        #expect(tip > 0.1, "the tare at the flat pose leaves the tip in the 6D tilt: \(tip) rad")
        #expect(gap < 0.02, "the 9D tilt from its first frame follows the tare: \(gap) rad from the 6D tilt")
    }
}
