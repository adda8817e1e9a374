import Foundation
import Testing
import TiltTestKit

/// Every command that reads a sensor log, given a damaged one: bad rows are skipped and counted (reported on
/// standard error) unless `--strict`, which stops at the first naming file, line and column; a truncated log is an
/// error everywhere (docs/log-format.md, "Bad rows and bad files").
@Suite(.serialized, .timeLimit(.minutes(2)))
struct DamagedLogCommandTests {
    private func tilt(_ arguments: [String]) throws -> ChildProcess {
        try ChildProcess.run(TestPaths.executable("tilt"), arguments)
    }

    /// Each log-reading `tilt` command, as arguments for a log at `path` with outputs in `dir`.
    private static func commands(log path: String, in dir: URL) -> [(name: String, arguments: [String])] {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let name = URL(fileURLWithPath: path).lastPathComponent
        return [
            ("fuse", ["fuse", "--input", path, "--output", dir.appendingPathComponent("fused.csv").path]),
            ("replay", ["replay", path, "--speed", "1000", "--rate", "1"]),
            ("bench fusion", ["bench", "fusion", "--data", folder, "--trials", name]),
            (
                "calibrate gyro",
                [
                    "calibrate", "gyro", "--input", path, "--duration", "1", "--force",
                    "--output", dir.appendingPathComponent("c.calib").path,
                ]
            ),
        ]
    }

    @Test("bad rows are skipped, reported and counted by every command")
    func badRowsAreSkippedAndCounted() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = try BadLogs.withBadRows(in: dir.appendingPathComponent("logs").creatingFolder())
        for (name, arguments) in Self.commands(log: log, in: dir) {
            let result = try tilt(arguments)
            #expect(result.status == 0, "\(name): \(result.stderr)")
            #expect(
                result.stderr.contains("skipped: \(log):\(BadLogs.nanLine) (column gyr_y): the value is not finite"),
                "\(name): \(result.stderr)")
            #expect(result.stderr.contains("skipped: \(log):\(BadLogs.malformedLine): "), "\(name): \(result.stderr)")
            let summary = name == "replay" ? "skipped 2 bad rows" : "skipped 2 bad rows of \(log)"
            #expect(result.stderr.contains(summary), "\(name): \(result.stderr)")
        }
    }

    @Test("--strict stops every command at the first bad row, naming file, line and column")
    func strictStopsAtTheFirstBadRow() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = try BadLogs.withBadRows(in: dir.appendingPathComponent("logs").creatingFolder())
        for (name, arguments) in Self.commands(log: log, in: dir) {
            let result = try tilt(arguments + ["--strict"])
            let output = result.stderr + result.stdout
            #expect(result.status != 0, "\(name) --strict: \(output)")
            #expect(output.contains("\(log):\(BadLogs.nanLine) (column gyr_y)"), "\(name) --strict: \(output)")
            #expect(!output.contains("skipped:"), "\(name) --strict: \(output)")
        }
    }

    @Test("a truncated log is an error naming the row, for every command", arguments: ["30%", "70%", "trailer"])
    func truncatedLogIsAnError(cut: String) throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bytes = try #require(BadLogs.excerptCuts.first { $0.name == cut }?.bytes)
        let log = try BadLogs.truncatedExcerpt(keeping: bytes, in: dir.appendingPathComponent("logs").creatingFolder())
        for (name, arguments) in Self.commands(log: log, in: dir) {
            let result = try tilt(arguments)
            let output = result.stderr + result.stdout
            #expect(result.status != 0, "\(name): \(output)")
            #expect(output.contains("\(log):") && output.contains("truncated at row"), "\(name): \(output)")
            #expect(!output.contains("finished"), "\(name): \(output)")
        }
    }

    @Test("tiltd replaying a truncated log reports the sensor lost with the reason, never finished")
    func daemonReportsATruncatedLogAsLost() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bytes = try #require(BadLogs.excerptCuts.first { $0.name == "30%" }?.bytes)
        let log = try BadLogs.truncatedExcerpt(keeping: bytes, in: dir)
        let daemon = try DaemonProcess.replaying(["--speed", "100"], log: log, in: dir)
        defer { daemon.stop() }
        let client = try daemon.connect()
        try client.send(#"{"cmd":"watch","rate":10}"#)
        var states: [String] = []
        while let event = client.read(class: "sensor", timeout: 10), let state = event["state"] as? String {
            states.append(state)
            if state != "active" {
                #expect(state == "lost")
                #expect((event["reason"] as? String)?.contains("truncated at row") == true, "\(event)")
                break
            }
        }
        #expect(states.last == "lost", "sensor states: \(states)")
        let status = try #require(try client.status())
        #expect(status["sensor"] as? String == "lost", "\(status)")
        #expect(status["rejected"] as? Int == 0, "the cut-off row is not counted as a bad row: \(status)")
    }
}

extension URL {
    /// Creates this folder (and its parents) and returns its path.
    fileprivate func creatingFolder() throws -> URL {
        try FileManager.default.createDirectory(at: self, withIntermediateDirectories: true)
        return self
    }
}
