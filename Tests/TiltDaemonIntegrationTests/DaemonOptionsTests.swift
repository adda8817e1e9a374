import Foundation
import Logging
import Testing
import TiltCore
import TiltTestKit

@testable import TiltDaemon

/// The settings table on its own: every setting parses from the file and from its flag by the same code, with the
/// same messages; flags override the file setting by setting; `--help` and the committed docs follow the table.
@Suite(.timeLimit(.minutes(2)))
struct DaemonOptionsTests {
    /// A value each setting accepts, one it refuses, and how to read the accepted value back.
    struct Sample: Sendable, CustomTestStringConvertible {
        var key: String
        var good: String
        var bad: String
        var read: @Sendable (DaemonOptions) -> String?

        var testDescription: String { key }
    }

    static let samples: [Sample] = [
        Sample(key: "socket", good: "/tmp/s.sock", bad: "") { $0.socket },
        Sample(key: "socket_group", good: "tilt", bad: "") { $0.socketGroup },
        Sample(key: "admin_group", good: "tilt-admin", bad: "") { $0.adminGroup },
        Sample(key: "max_clients", good: "7", bad: "0") { $0.maxClients.map { "\($0)" } },
        Sample(key: "max_line_length", good: "512", bad: "10") { $0.maxLineLength.map { "\($0)" } },
        Sample(key: "commands_per_second", good: "2.5", bad: "100001") { $0.commandsPerSecond.map { "\($0)" } },
        Sample(key: "raw_queue_seconds", good: "0.5", bad: "601") { $0.rawQueueSeconds.map { "\($0)" } },
        Sample(key: "log_level", good: "notice", bad: "loud") { $0.logLevel?.rawValue },
        Sample(key: "log_format", good: "plain", bad: "xml") { $0.logFormat?.rawValue },
        Sample(key: "replay", good: "/tmp/x.csv", bad: "") { $0.replay },
        Sample(key: "speed", good: "2.0", bad: "0") { $0.speed.map { "\($0)" } },
        Sample(key: "loop", good: "true", bad: "maybe") { $0.loop.map { "\($0)" } },
        Sample(key: "uri", good: "ip:host", bad: "") { $0.uri },
        Sample(key: "evdev", good: "/dev/input/event7", bad: "") { $0.evdev },
        Sample(key: "dsu", good: "192.168.1.5:26760/0", bad: "phone/9") { $0.dsu.map { "\($0)" } },
        Sample(key: "no_mag", good: "true", bad: "maybe") { $0.noMag.map { "\($0)" } },
        Sample(key: "limit", good: "0.25", bad: "0") { $0.limit.map { "\($0)" } },
        Sample(key: "calibration", good: "/a.calib", bad: "") { $0.calibration },
        Sample(key: "calibration_dir", good: "/a", bad: ":") { $0.calibrationDirs?.joined(separator: ":") },
        Sample(key: "no_calibration", good: "true", bad: "x") { $0.noCalibration.map { "\($0)" } },
        Sample(key: "dmi_root", good: "/d", bad: "") { $0.dmiRoot },
        Sample(key: "power", good: "false", bad: "sometimes") { $0.power.map { "\($0)" } },
        Sample(key: "power_poll", good: "15.0", bad: "0.01") { $0.powerPoll.map { "\($0)" } },
        Sample(key: "power_supply_root", good: "/p", bad: "") { $0.powerSupplyRoot },
        Sample(key: "platform_profile", good: "/pp", bad: "") { $0.platformProfile },
        Sample(key: "system_bus", good: "unix:path=/x", bad: "") { $0.systemBus },
        Sample(key: "sensor_proxy", good: "true", bad: "x") { $0.sensorProxy.map { "\($0)" } },
        Sample(key: "dsu_server", good: "127.0.0.1:26760", bad: "127.0.0.1:26760/0") { $0.dsuServer.map { "\($0)" } },
    ]

    @Test("every setting has a sample here, one key and one flag of its own, help and a default")
    func tableIsComplete() {
        #expect(DaemonOptions.settings.map(\.key) == Self.samples.map(\.key))
        #expect(Set(DaemonOptions.settings.map(\.flag.name)).count == DaemonOptions.settings.count)
        for setting in DaemonOptions.settings {
            #expect(
                !setting.help.isEmpty && !setting.expects.isEmpty && !setting.defaultValue.isEmpty, "\(setting.key)")
        }
    }

    @Test(
        "a file line sets its setting, and a bad value names file, line, key and what was expected", arguments: samples)
    func parsesFromTheFile(sample: Sample) throws {
        let setting = try #require(DaemonOptions.setting(key: sample.key))
        let options = try DaemonOptions(file: ConfigFile.parse("\(sample.key) = \(sample.good)\n", path: "t.conf"))
        #expect(sample.read(options) == sample.good)
        #expect(setting.isGiven(options))
        let error = #expect(throws: ConfigError.self) {
            try DaemonOptions(file: ConfigFile.parse("# x\n\(sample.key) = \"\(sample.bad)\"\n", path: "t.conf"))
        }
        #expect(error?.kind == .badValue)
        #expect(error?.origin == .file(path: "t.conf", line: 2))
        #expect(
            error?.description == "t.conf:2: key '\(sample.key)': expected \(setting.expects), got '\(sample.bad)'")
    }

    @Test("a flag is read by the same code as the file: same value, same message naming the flag", arguments: samples)
    func parsesFromTheFlag(sample: Sample) throws {
        let setting = try #require(DaemonOptions.setting(key: sample.key))
        let name = setting.flag.name
        let good: DaemonOptions.Setting.FlagValue
        switch setting.flag {
        case .value, .repeatable:
            good = .texts([sample.good])
            // One --calibration-dir is one folder, ':' and all: only an empty one is refused.
            let bad = setting.flag == .repeatable(name, valueName: "DIR") ? "" : sample.bad
            let error = #expect(throws: ConfigError.self) { try DaemonOptions(flags: [name: .texts([bad])]) }
            #expect(error?.kind == .badValue)
            #expect(error?.description == "--\(name): expected \(setting.expects), got '\(bad)'")
        case .toggle, .presence:
            good = .switched(sample.good == "true")
        case .inverseToggle:
            good = .switched(sample.good != "true")
        }
        let options = try DaemonOptions(flags: [name: good])
        #expect(sample.read(options) == sample.good)
        let unknown = #expect(throws: ConfigError.self) { try DaemonOptions(flags: ["frobnicate": .switched(true)]) }
        #expect(unknown?.kind == .unknownFlag)
        #expect(unknown?.origin == .flag("--frobnicate"))
    }

    @Test("--calibration-dir repeats, one folder each; the file separates folders with ':'")
    func repeatedFlag() throws {
        let flags = try DaemonOptions(flags: ["calibration-dir": .texts(["/a", "/b:c"])])
        #expect(flags.calibrationDirs == ["/a", "/b:c"])
        let file = try DaemonOptions(file: ConfigFile.parse("calibration_dir = /a::/b\n", path: "t.conf"))
        #expect(file.calibrationDirs == ["/a", "/b"])
        let empty = #expect(throws: ConfigError.self) {
            try DaemonOptions(flags: ["calibration-dir": .texts(["/a", ""])])
        }
        #expect(empty?.kind == .badValue)
    }

    @Test("each flag beats its own key and leaves the others; nothing given keeps the file", arguments: samples)
    func overlay(sample: Sample) throws {
        let setting = try #require(DaemonOptions.setting(key: sample.key))
        var file = DaemonOptions()
        file.maxLineLength = 100
        try setting.apply([sample.good], to: &file, origin: .flag("--x"))
        #expect(file.overlaid(by: DaemonOptions()) == file)
        var flags = DaemonOptions()
        flags.maxClients = 3
        let merged = file.overlaid(by: flags)
        #expect(merged.maxClients == 3)
        #expect(sample.read(merged) == (sample.key == "max_clients" ? "3" : sample.good))
        #expect(merged.maxLineLength == (sample.key == "max_line_length" ? 512 : 100))
    }

    @Test("every setting's flag and help are in tiltd --help")
    func helpShowsEverySetting() throws {
        let result = try ChildProcess.run(TestPaths.executable("tiltd"), ["--help"], timeout: 20)
        #expect(result.status == 0)
        let help = result.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for setting in DaemonOptions.settings {
            let name = setting.flag.name
            let flag =
                switch setting.flag {
                case .value(_, let value), .repeatable(_, let value): "--\(name) <\(value)>"
                case .toggle, .inverseToggle: "--\(name)/--no-\(name)"
                case .presence: "--\(name)"
                }
            #expect(help.contains(flag), "\(flag) missing from tiltd --help")
            let line = setting.helpLine.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(help.contains(line), "\(setting.key)'s help missing from tiltd --help")
        }
        #expect(!help.contains("--presets"), "--presets moved to tiltfx check")
    }

    @Test("every value flag of tiltd is checked by the table and refused with the usage, naming the flag")
    func flagsAreWired() throws {
        for sample in Self.samples {
            let setting = try #require(DaemonOptions.setting(key: sample.key))
            guard case .value(let name, _) = setting.flag else { continue }
            let result = try ChildProcess.run(
                TestPaths.executable("tiltd"), ["--check", "--\(name)", sample.bad], timeout: 20)
            #expect(result.status == 64, "--\(name) '\(sample.bad)': \(result.stderr)")
            #expect(result.stderr.contains("--\(name): expected \(setting.expects)"), "\(result.stderr)")
        }
        let presets = try ChildProcess.run(TestPaths.executable("tiltd"), ["--check", "--presets", "/x"], timeout: 20)
        #expect(presets.status == 64 && presets.stderr.contains("tiltfx check"), "\(presets.stderr)")
    }

    @Test("each problem of a config file says what kind it is, on its line")
    func problemKinds() throws {
        let text = "max_clients = many\nnot a line\nspeling = 1\nmax_line_length = 0\n[x\nmax_clients = 3\n"
        let (file, lineProblems) = ConfigFile.parseAll(text, path: "k.conf")
        #expect(lineProblems.map(\.kind) == [.syntax, .syntax, .repeatedKey])
        #expect(lineProblems.map(\.origin) == [2, 5, 6].map { .file(path: "k.conf", line: $0) })
        let valueProblems = DaemonOptions.reading(file).problems
        #expect(valueProblems.map(\.kind) == [.badValue, .unknownKey, .badValue])
        #expect(valueProblems.map(\.origin) == [1, 3, 4].map { .file(path: "k.conf", line: $0) })
        let unreadable = #expect(throws: ConfigError.self) { try ConfigFile.readAll(path: "/nonexistent/k.conf") }
        #expect(unreadable?.kind == .unreadable)
        #expect(unreadable?.origin == .file(path: "/nonexistent/k.conf", line: nil))
    }

    @Test("dist/tiltd.conf and the table in dist/README.md are what the settings table makes")
    func docsFollowTheTable() throws {
        let dist = TestPaths.repositoryRoot.appendingPathComponent("dist")
        let conf = try String(contentsOf: dist.appendingPathComponent("tiltd.conf"), encoding: .utf8)
        #expect(conf == DaemonOptions.sampleConfig(), "regenerate: tiltd --print-sample-config > dist/tiltd.conf")
        let readme = try String(contentsOf: dist.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(
            readme.contains("\n\n" + DaemonOptions.markdownTable() + "\n"),
            "regenerate the table in dist/README.md with tiltd --print-config-table")
        let printed = try ChildProcess.run(TestPaths.executable("tiltd"), ["--print-sample-config"], timeout: 20)
        #expect(printed.stdout == conf)
    }
}
