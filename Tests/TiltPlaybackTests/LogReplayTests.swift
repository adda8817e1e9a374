import Foundation
import Testing
import TiltCore
import TiltPlayback
import TiltSensors
import TiltTestKit

@Suite struct LogReplayTests {
    @Test func fusesEverySampleWithTimesFromTheFirst() throws {
        let log = try SensorLog.read(path: TestPaths.broadExcerpt)
        let frames = try LogReplay.frames(path: TestPaths.broadExcerpt)
        #expect(frames.count == log.samples.count)
        #expect(frames.first?.time == 0)
        let first = try #require(log.samples.first?.time)
        let last = try #require(log.samples.last?.time)
        #expect(abs((frames.last?.time ?? 0) - (last - first)) < 1e-9)
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $0.time <= $1.time }, "in time order")
        #expect(frames.allSatisfy { $0.source == "replay" })
    }

    @Test func aMissingLogNamesTheFile() {
        #expect {
            _ = try LogReplay.frames(path: "/nonexistent/log.csv")
        } throws: { error in
            (error as? PlaybackError)?.kind == .unreadable && "\(error)".hasPrefix("cannot read /nonexistent/log.csv: ")
        }
    }

    @Test func anEmptyLogSaysHowToRecordOne() {
        let empty = SensorLog(path: "empty.csv", samples: [], hasMagnetometer: false)
        #expect {
            _ = try LogReplay.frames(of: empty)
        } throws: { error in
            (error as? PlaybackError)?.kind == .empty
                && "\(error)" == "cannot read empty.csv: the log holds no samples; record one with `tilt record`"
        }
    }
}

@Suite struct LogReplayDamageTests {
    @Test func badRowsAreSkippedAndReportedUnlessStrict() throws {
        let dir = TestPaths.temporaryDirectory("tiltbad")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try BadLogs.withBadRows(in: dir)
        var reported: [String] = []
        let frames = try LogReplay.frames(path: path) { reported.append($0) }
        #expect(frames.count == BadLogs.goodRows)
        #expect(reported.count == 3 && reported.last?.hasPrefix("skipped 2 bad rows") == true, "\(reported)")
        #expect {
            _ = try LogReplay.frames(path: path, strict: true)
        } throws: { error in
            (error as? PlaybackError)?.kind == .unreadable
                && "\(error)".contains("\(path):\(BadLogs.nanLine) (column gyr_y)")
        }
    }

    @Test func aTruncatedLogIsAnError() throws {
        let dir = TestPaths.temporaryDirectory("tiltcut")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try BadLogs.truncatedExcerpt(keeping: BadLogs.excerptCuts[0].bytes, in: dir)
        #expect {
            _ = try LogReplay.frames(path: path)
        } throws: { error in
            (error as? PlaybackError)?.kind == .unreadable && "\(error)".contains("truncated at row")
        }
    }
}
