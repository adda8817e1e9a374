import Foundation
import Logging
import Testing
import TiltCore
import TiltDaemon
import TiltTestKit

#if canImport(Glibc)
    import Glibc
#endif

/// The config file and `tiltd --check`: parsing, errors naming file, line and key, flags over the file.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct ServiceConfigTests {
    @Test("comments, quotes and sections parse; every key sets its option")
    func parsesTheFormat() throws {
        let text = """
            # a comment
            [socket]
            socket = "/tmp/with # hash.sock"   # trailing comment
            socket_group = nogroup
            [limits]
            max_clients = 7
            max_line_length = 512
            commands_per_second = 2.5
            log_level = notice
            loop = yes
            replay = /tmp/x.csv
            power = off
            calibration_dir = /a:/b
            """
        let options = try DaemonOptions(file: ConfigFile.parse(text, path: "t.conf"))
        #expect(options.socket == "/tmp/with # hash.sock")
        #expect(options.socketGroup == "nogroup")
        #expect(options.maxClients == 7)
        #expect(options.maxLineLength == 512)
        #expect(options.commandsPerSecond == 2.5)
        #expect(options.logLevel == .notice)
        #expect(options.loop == true && options.replay == "/tmp/x.csv")
        #expect(options.power == false)
        #expect(options.calibrationDirs == ["/a", "/b"])
        let configuration = try options.makeConfiguration()
        #expect(configuration.policy.maxClients == 7)
        #expect(configuration.policy.socketGroup?.gid == (try UnixGroup.lookup("nogroup", key: "t")).gid)
        #expect(configuration.power == nil)
        #expect(DaemonOptions.settings.count >= 18)
    }

    @Test(
        "a bad config file stops tiltd with file, line and key",
        arguments: [
            ("max_clients = lots\n", ":1:", "max_clients", "whole number"),
            ("# ok\nspeed = 1\nfrobnicate = 3\n", ":3:", "frobnicate", "unknown key"),
            ("loop = maybe\n", ":1:", "loop", "true or false"),
            ("[limits]\nmax_clients 12\n", ":2:", "expected 'key = value'", "max_clients 12"),
            ("speed = 1\nspeed = 2\n", ":2:", "speed", "given twice (first on line 1)"),
            ("socket = \"/tmp/x\n", ":1:", "socket", "closing"),
            ("max_line_length = 10\n", ":1:", "max_line_length", "64 to 65536"),
        ])
    func configErrors(text: String, line: String, key: String, reason: String) throws {
        let dir = TestPaths.temporaryDirectory("cfgE")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = try ServiceFixtures.write(text, to: "bad.conf", in: dir)
        let result = try ChildProcess.run(
            TestPaths.executable("tiltd"),
            ["--config", file, "--replay", TestPaths.broadExcerpt, "--socket", dir.appendingPathComponent("s").path],
            timeout: 20)
        #expect(result.status == 1)
        #expect(result.stderr.contains(file + line), "\(result.stderr)")
        #expect(result.stderr.contains(key), "\(result.stderr)")
        #expect(result.stderr.contains(reason), "\(result.stderr)")
    }

    @Test("a missing config file is an error naming it")
    func missingConfig() throws {
        let result = try ChildProcess.run(
            TestPaths.executable("tiltd"), ["--config", "/nonexistent/tiltd.conf"], timeout: 20)
        #expect(result.status == 1)
        #expect(result.stderr.contains("/nonexistent/tiltd.conf") && result.stderr.contains("cannot read"))
    }

    @Test("flags override the file: --socket and --max-clients beat socket and max_clients")
    func flagsOverrideFile() throws {
        let dir = TestPaths.temporaryDirectory("cfgF")
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = try ServiceFixtures.write(
            """
            replay = \(TestPaths.broadExcerpt)
            socket = /nonexistent/folder/tiltd.sock
            max_clients = 1
            power = off
            """, to: "tiltd.conf", in: dir)
        let path = dir.appendingPathComponent("d.sock").path
        let daemon = try ServiceProcess.tiltd(["--config", config, "--socket", path, "--max-clients", "2"])
        let first = try LineSocket(path: path)
        #expect(first.read(class: "hello") != nil, "the flag's socket serves: \(daemon.log)")
        let second = try LineSocket(path: path)
        #expect(second.read(class: "hello") != nil, "--max-clients 2 beats max_clients = 1")
        let third = try LineSocket(path: path)
        let full = try #require(third.read(class: "error"))
        #expect((full["message"] as? String)?.contains("limit 2") == true)
        #expect(daemon.stop() == 0)
    }

    @Test("--check passes on a good config")
    func checkPasses() throws {
        let dir = TestPaths.temporaryDirectory("cfgC")
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = try ServiceFixtures.write(
            "replay = \(TestPaths.broadExcerpt)\nsocket_group = nogroup\nmax_clients = 100\n", to: "ok.conf", in: dir)
        let result = try ChildProcess.run(TestPaths.executable("tiltd"), ["--config", config, "--check"], timeout: 30)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("tiltd --check: OK"))
        #expect(result.stdout.contains("ok   config: \(config): 3 keys"))
        #expect(result.stdout.contains("max_clients 100"))
    }

    @Test("--check fails on a missing calibration file and a bad config")
    func checkFails() throws {
        let dir = TestPaths.temporaryDirectory("cfgK")
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = try ServiceFixtures.write(
            "replay = \(TestPaths.broadExcerpt)\ncalibration = \(dir.path)/missing.calib\n", to: "k.conf", in: dir)
        let result = try ChildProcess.run(TestPaths.executable("tiltd"), ["--config", config, "--check"], timeout: 30)
        #expect(result.status == 1, "\(result.stdout)")
        let report = result.stdout
        #expect(report.contains("FAIL calibration:") && report.contains("missing.calib"), "\(report)")
        #expect(result.stdout.contains("tiltd --check: 1 problem"), "\(result.stdout)")

        let badConfig = try ServiceFixtures.write("max_clients = x\n", to: "bad.conf", in: dir)
        let badResult = try ChildProcess.run(
            TestPaths.executable("tiltd"), ["--config", badConfig, "--check"], timeout: 30)
        #expect(badResult.status == 1)
        #expect(badResult.stdout.contains("FAIL config: \(badConfig):1: key 'max_clients'"), "\(badResult.stdout)")
    }

    @Test("--check reports every bad key and value of the config file in one run, in file order")
    func checkReportsEveryConfigError() throws {
        let dir = TestPaths.temporaryDirectory("cfgE")
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = try ServiceFixtures.write(
            "replay = \(TestPaths.broadExcerpt)\nmax_clients = many\nnot a line\nspeling = 1\nmax_line_length = 0\n",
            to: "e.conf", in: dir)
        let result = try ChildProcess.run(TestPaths.executable("tiltd"), ["--config", config, "--check"], timeout: 30)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let failures = result.stdout.split(separator: "\n").filter { $0.hasPrefix("FAIL config: ") }
        #expect(failures.count == 4, "\(result.stdout)")
        #expect(failures.first?.contains("\(config):2: key 'max_clients': expected") == true, "\(result.stdout)")
        #expect(result.stdout.contains("\(config):3: expected 'key = value'"), "\(result.stdout)")
        #expect(result.stdout.contains("\(config):4: key 'speling': unknown key"), "\(result.stdout)")
        #expect(result.stdout.contains("\(config):5: key 'max_line_length': expected"), "\(result.stdout)")
        #expect(result.stdout.contains("tiltd --check: 4 problems"), "\(result.stdout)")

        // Starting for real still stops at the first problem, naming it (a malformed line before a bad value).
        let start = try ChildProcess.run(TestPaths.executable("tiltd"), ["--config", config], timeout: 30)
        #expect(start.status != 0)
        #expect(start.stderr.contains("\(config):3: expected 'key = value'"), "\(start.stderr)")
        #expect(!start.stderr.contains("speling"), "\(start.stderr)")
    }

    @Test("--check fails on a socket a live daemon serves, and passes on a stale one")
    func checkFailsOnALiveSocket() throws {
        let dir = TestPaths.temporaryDirectory("cfgL")
        defer { try? FileManager.default.removeItem(at: dir) }
        let daemon = try DaemonProcess.replaying(["--loop"], in: dir)
        _ = try daemon.connect()  // it accepts: the socket is live
        let socket = try #require(daemon.socketPath)
        let arguments = ["--replay", TestPaths.broadExcerpt, "--socket", socket, "--check"]
        let live = try ChildProcess.run(TestPaths.executable("tiltd"), arguments, timeout: 30)
        #expect(live.status == 1, "\(live.stdout)\(live.stderr)")
        #expect(live.stdout.contains("FAIL socket: a daemon already answers at \(socket)"), "\(live.stdout)")
        #expect(!live.stdout.contains("ok   socket"), "\(live.stdout)")
        #expect(daemon.stop(signal: SIGKILL) != nil)

        // Killed, it leaves its socket file behind: tiltd would remove it, so that passes.
        let stale = try ChildProcess.run(TestPaths.executable("tiltd"), arguments, timeout: 30)
        #expect(stale.status == 0, "\(stale.stdout)\(stale.stderr)")
        #expect(stale.stdout.contains("ok   socket: \(socket)"), "\(stale.stdout)")
    }
}
