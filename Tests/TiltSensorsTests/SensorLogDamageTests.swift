import Foundation
import Synchronization
import Testing
import TiltCore
import TiltSensors
import TiltTestKit

/// Damaged logs: truncated gzip streams, bad rows under the one bad-row policy, and a wrong header.
@Suite struct SensorLogDamageTests {
    @Test(arguments: BadLogs.excerptCuts.map(\.bytes))
    func aTruncatedLogIsAnErrorNamingTheRow(bytes: Int) throws {
        let dir = TestPaths.temporaryDirectory("tiltcut")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try BadLogs.truncatedExcerpt(keeping: bytes, in: dir)
        for policy in [BadRowPolicy.skip, .strict] {
            do {
                let log = try SensorLog.read(path: path, badRows: policy)
                Issue.record("a log cut at \(bytes) bytes was read whole: \(log.samples.count) samples")
            } catch {
                #expect(error.kind == .truncated)
                #expect(error.path == path)
                #expect(error.description.contains("truncated at row"), "\(error)")
                // The excerpt has a comment and a header, then 17,143 rows: a cut in the trailer leaves every row
                // whole, and the error is at the row after the last.
                let line = try #require(error.line)
                #expect(line > 2 && line <= 17_143 + 3, "\(error)")
                if bytes == BadLogs.excerptCuts.last?.bytes {
                    #expect(error.description.contains("truncated at row 17144:") && line == 17_146, "\(error)")
                }
            }
        }
    }

    @Test func aTruncatedLogYieldsItsCompleteRowsThenStaysAtTheError() throws {
        let dir = TestPaths.temporaryDirectory("tiltcut")
        defer { try? FileManager.default.removeItem(at: dir) }
        let cut = try #require(BadLogs.excerptCuts.first { $0.name == "70%" })
        let reader = try SensorLogReader(path: try BadLogs.truncatedExcerpt(keeping: cut.bytes, in: dir))
        var rows = 0
        var lastLine = 0
        do {
            while let row = try reader.next() {
                rows += 1
                lastLine = row.line
            }
            Issue.record("the reader reached the end of a truncated log")
        } catch {
            // The cut-off last line is not passed on as a row: the error names the row after the last whole one.
            #expect(error.line == lastLine + 1)
            #expect(
                error.description.contains(":\(lastLine + 1): the log is truncated at row \(rows + 1):"), "\(error)")
            #expect(rows > 17_143 / 2 && rows < 17_143, "\(rows) rows")
        }
        #expect(throws: SensorLogError.self) { try reader.next() }
    }

    @Test func theWholeExcerptIsNotTruncated() throws {
        #expect(try SensorLog.read(path: TestPaths.broadExcerpt, badRows: .strict).samples.count == 17_143)
    }

    @Test func aTruncatedReplayStopsWithAnErrorNotFinished() async throws {
        let dir = TestPaths.temporaryDirectory("tiltcut")
        defer { try? FileManager.default.removeItem(at: dir) }
        let cut = try #require(BadLogs.excerptCuts.first { $0.name == "30%" })
        let path = try BadLogs.truncatedExcerpt(keeping: cut.bytes, in: dir)
        let source = try LogReplaySource(configuration: .init(path: path, speed: 10_000))
        let events = Mutex<[MotionSourceEvent]>([])
        do {
            try await source.run(rate: nil) { event in events.withLock { $0.append(event) } }
            Issue.record("the replay of a truncated log ended without an error")
        } catch let error as MotionSourceError {
            guard case .log(let log) = error.kind else {
                Issue.record("not the log's error: \(error)")
                return
            }
            #expect(log.kind == .truncated, "\(error)")
            #expect(error.message.contains("truncated at row"), "\(error)")
        }
        let all = events.withLock { $0 }
        #expect(!all.contains { if case .sensor(.finished, _) = $0 { true } else { false } })
        #expect(!all.contains { if case .rejected = $0 { true } else { false } }, "the cut-off row is not a bad row")
    }

    @Test func badRowsAreSkippedCountedAndReported() throws {
        let dir = TestPaths.temporaryDirectory("tiltbad")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try BadLogs.withBadRows(in: dir)
        var reported: [String] = []
        let log = try SensorLog.read(path: path) { reported.append($0) }
        #expect(log.samples.count == BadLogs.goodRows)
        #expect(log.truth?.count == BadLogs.goodRows && log.movement?.count == BadLogs.goodRows)
        #expect(log.skipped.count == 2)
        #expect(reported.count == 3, "two rows and the summary: \(reported)")
        #expect(reported[0] == "skipped: \(path):\(BadLogs.nanLine) (column gyr_y): the value is not finite")
        #expect(reported[1].hasPrefix("skipped: \(path):\(BadLogs.malformedLine): the row has 3 fields"))
        #expect(reported[2].hasPrefix("skipped 2 bad rows of \(path) (the first: \(path):\(BadLogs.nanLine)"))
        #expect(reported[2].contains("--strict"))
    }

    @Test func strictStopsAtTheFirstBadRow() throws {
        let dir = TestPaths.temporaryDirectory("tiltbad")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try BadLogs.withBadRows(in: dir)
        #expect {
            _ = try SensorLog.read(path: path, badRows: .strict)
        } throws: { error in
            let error = error as? SensorLogError
            return error?.line == BadLogs.nanLine && error?.column == "gyr_y" && error?.kind == .row
        }
    }

    @Test func strictReplayStopsAtTheFirstBadRow() async throws {
        let dir = TestPaths.temporaryDirectory("tiltbad")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try BadLogs.withBadRows(in: dir)
        var configuration = LogReplaySource.Configuration(path: path, speed: 10_000)
        configuration.badRows = .strict
        let source = try LogReplaySource(configuration: configuration)
        await #expect {
            try await source.run(rate: nil) { _ in }
        } throws: { error in
            "\(error)".hasPrefix("\(path):\(BadLogs.nanLine) (column gyr_y)")
        }
    }

    @Test func theFirstTenThenEveryThousandthAreReported() {
        #expect((1...10).allSatisfy(SkippedRows.isReported))
        #expect(!SkippedRows.isReported(11) && !SkippedRows.isReported(999) && !SkippedRows.isReported(1001))
        #expect(SkippedRows.isReported(1000) && SkippedRows.isReported(2000))
        var skipped = SkippedRows()
        let lines = (1...2500).compactMap { skipped.add("row \($0)") }
        #expect(lines.count == 12)
        #expect(lines.last == "skipped: row 2000 (2000 bad rows so far; reporting every thousandth)")
        #expect(skipped.count == 2500 && skipped.first == "row 1")
        #expect(SkippedRows().summary(of: "x.csv") == nil)
    }

    @Test func aWrongHeaderSaysWhatIsMissingOnceAndWhatItHas() throws {
        let dir = TestPaths.temporaryDirectory("tiltlog")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("h.csv").path
        try "time,gyr_x,gyr_y,gz,acc_x,acc_y,acc_z\n0,0,0,0,0,0,9.8\n".write(
            toFile: path, atomically: true, encoding: .utf8)
        do {
            _ = try SensorLog.read(path: path)
            Issue.record("a header without t and gyr_z was accepted")
        } catch {
            #expect(error.kind == .header && error.line == 1)
            let text = error.description
            #expect(text.contains("lacks the required columns t, gyr_z;"), "\(text)")
            #expect(text.components(separatedBy: "gyr_z").count == 2, "gyr_z named once: \(text)")
            #expect(
                text.contains("it has these columns: 'time', 'gyr_x', 'gyr_y', 'gz', 'acc_x', 'acc_y', 'acc_z'"),
                "\(text)")
        }
    }
}

/// A folder or a file of another kind given as a log: a `.file` error naming what it is.
@Suite struct NotALogTests {
    @Test("a folder, a PNG and a gzip of binary data are named, not read as a header of raw bytes")
    func namedKinds() throws {
        let dir = TestPaths.temporaryDirectory("notalog")
        defer { try? FileManager.default.removeItem(at: dir) }
        let png = dir.appendingPathComponent("a.csv").path
        _ = FileManager.default.createFile(
            atPath: png, contents: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0]))
        for (path, words) in [(dir.path, "this is a folder, not a sensor log"), (png, "this is a PNG picture")] {
            do {
                _ = try SensorLogReader(path: path)
                Issue.record("\(path) was read as a log")
            } catch {
                #expect(error.kind == .file)
                #expect(error.description.contains(words), "\(error)")
            }
        }
    }
}
