import Foundation
import Testing
import TiltCore
import TiltFusion
import TiltSensors
import TiltTestKit
import TiltTools

/// The benches' inputs and outputs: paths resolved, reports and tables formed.
@Suite
struct BenchTests {
    @Test("an input: the given path when usable, else the first usable default; errors name the option")
    func resolve() throws {
        let usable: (String) -> Bool = { $0.hasPrefix("/ok") }
        func pick(_ given: String?, _ defaults: [String]) throws -> String {
            try BenchInput.resolve(
                option: "--log", given: given, defaults: defaults, usable: usable, unusable: "no such file",
                missing: "nothing found")
        }
        #expect(try pick("/ok/a", ["/ok/b"]) == "/ok/a")
        #expect(try pick(nil, ["/no", "/ok/b", "/ok/c"]) == "/ok/b")
        #expect(throws: Never.self) { try pick(nil, ["/ok"]) }
        #expect { try pick("/no/x", ["/ok/b"]) } throws: { "\($0)" == "--log /no/x: no such file" }
        #expect { try pick(nil, ["/no"]) } throws: { "\($0)" == "nothing found" }
        #expect { try BenchInput.tiltd(bin: "/nonexistent") } throws: {
            "\($0)" == "--bin /nonexistent: no tiltd there to run; pass the folder of a build with tiltd"
        }
        #expect(try BenchInput.daemonLog(given: TestPaths.broadExcerpt) == TestPaths.broadExcerpt)
        #expect(BenchInput.isFolder(NSTemporaryDirectory()))
        #expect(!BenchInput.isFolder(TestPaths.broadExcerpt))
    }

    @Test("the daemon bench's report: expected frames from the lower rate, shortfall, latency percentiles, churn")
    func report() {
        var report = BenchReport(clients: 2, rate: 60, seconds: 2, logName: "x.csv.gz", logRate: 50)
        report.frames = [100, 90]
        report.latencies = (1...100).map { Double($0) / 1e4 }
        report.cpuPercent = 12.5
        report.churn = 9
        report.clientsAfterChurn = 0
        #expect(report.expectedPerClient == 100)
        let text = report.text
        #expect(text.hasPrefix("tilt bench daemon: 2 clients × 60 Hz for 2.0 s; tiltd replaying x.csv.gz (50 Hz"))
        #expect(text.contains("expected 100, received min 90 / mean 95.0 / max 100"))
        #expect(text.contains("expected 200, received 190 (short by 10, 5.00 %)"))
        #expect(text.contains("daemon CPU             12.5 % of one core"))
        #expect(text.contains("p50 5.100 ms, p99 10.000 ms, max 10.000 ms (100 frames)"))
        #expect(text.hasSuffix("clients left 0"))
        #expect(BenchReport(clients: 1, rate: 1, seconds: 1, logName: "", logRate: nil).text.contains("no frames"))
    }

    @Test("the fusion bench: only .csv and .csv.gz logs, sorted, filtered by a shell pattern")
    func logNames() throws {
        let dir = TestPaths.temporaryDirectory("benchF")
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in ["02.csv", "01.csv.gz", "notes.txt", "11.csv"] {
            try "".write(toFile: dir.appendingPathComponent(name).path, atomically: false, encoding: .utf8)
        }
        #expect(try FusionBenchmark.logNames(in: dir.path, matching: nil) == ["01.csv.gz", "02.csv", "11.csv"])
        #expect(try FusionBenchmark.logNames(in: dir.path, matching: "0*") == ["01.csv.gz", "02.csv"])
        #expect { try FusionBenchmark.logNames(in: dir.path, matching: "9*") } throws: {
            "\($0)"
                == "no .csv or .csv.gz logs in \(dir.path) matching '9*'; pass a folder of sensor logs with --data DIR"
        }
    }

    @Test("the fusion bench's JSON: scores in degrees, null for a missing or non-finite one, names quoted")
    func json() {
        let score = BroadScore(total: 1.5, heading: .nan, inclination: 0.5, count: 10)
        let text = FusionBenchmark.json(
            [(name: "a\"b", nine: nil, six: score)], label: "x=1", rate: 2e6, samples: 10, nineRate: 0,
            nineSamples: 0)
        #expect(
            text
                == "{\"label\":\"x=1\",\"speed\":2000000.0,\"samples\":10,\"speed9D\":0.0,\"samples9D\":0,\"trials\":"
                + "[{\"name\":\"a\\\"b\",\"nine\":null,\"six\":{\"total\":1.5,\"heading\":null,\"inclination\":0.5}}]}")
        let table = FusionBenchmark.table([(name: "trial", nine: nil, six: score)])
        #expect(table.split(separator: "\n").count == 3, "header, the trial, the mean:\n\(table)")
        #expect(table.split(separator: "\n")[1].hasPrefix("trial        –        –        –       1.50"))
    }
}
