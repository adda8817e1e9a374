import Foundation
import Testing
import TiltTestKit

/// The built `tilt` and `tiltd` given bad input: the exit status (64 and the usage for a usage mistake, 1 without
/// it for a failure such as a missing file), and a message that starts `error: ` and says what is allowed.
@Suite(.serialized) struct ArgumentErrorTests {
    static func tilt(_ arguments: [String]) throws -> ChildProcess {
        try ChildProcess.run(TestPaths.executable("tilt"), arguments, timeout: 30)
    }

    static func tiltd(_ arguments: [String]) throws -> ChildProcess {
        try ChildProcess.run(TestPaths.executable("tiltd"), arguments, timeout: 30)
    }

    /// A socket path where no daemon can be.
    static let noDaemon = "/nonexistent-\(getpid())/tiltd.sock"

    @Test("a negative number is taken as the option's value and gets the option's range, not 'Missing value'")
    func negativeNumbersReachTheRangeCheck() throws {
        let cases: [(result: ChildProcess, expected: String)] = [
            (try Self.tilt(["replay", TestPaths.broadExcerpt, "--speed", "-1"]), "error: --speed must be a positive"),
            (try Self.tilt(["watch", "--rate", "-2"]), "error: --rate must be from 0.1 to 1000"),
            (try Self.tilt(["record", "--output", "/tmp/x.csv", "--duration", "-3"]), "error: --duration must be"),
            (try Self.tiltd(["--check", "--speed", "-1"]), "error: --speed: expected a positive number"),
        ]
        for (result, expected) in cases {
            #expect(result.status == 64, "\(result.stderr)")
            #expect(result.stderr.hasPrefix(expected), "\(result.stderr)")
            #expect(!result.stderr.contains("Missing value"), "\(result.stderr)")
        }
    }

    @Test("tilt watch --rate 0 says the range tiltd grants, which 0 is outside of")
    func watchRateRangeIsTrue() throws {
        let result = try Self.tilt(["watch", "--rate", "0"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("error: --rate must be from 0.1 to 1000 frames per second"), "\(result.stderr)")
    }

    @Test("a fusion parameter outside its range is refused before any log is read")
    func fusionParameterRange() throws {
        let result = try Self.tilt(["bench", "fusion", "--data", "/nonexistent", "--set", "accelTimeConstant=-1"])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(
            result.stderr.hasPrefix(
                "error: --set accelTimeConstant=-1: -1 is out of range; accelTimeConstant must be from 0.01 to 1000 s"),
            "\(result.stderr)")
    }

    @Test("a missing input file exits 1 with a message naming it, without the usage text")
    func missingFilesAreNoUsageErrors() throws {
        let cases: [(result: ChildProcess, expected: String)] = [
            (
                try Self.tilt(["bench", "fusion", "--data", "/nonexistent"]),
                "error: --data /nonexistent: no such folder"
            ),
            (
                try Self.tilt(["bench", "daemon", "--log", "/nonexistent.csv"]),
                "error: --log /nonexistent.csv: no such readable file"
            ),
            (try Self.tilt(["replay", "/nonexistent.csv"]), "error: "),
            (try Self.tiltd(["--config", "/nonexistent.conf"]), "error: "),
        ]
        for (result, expected) in cases {
            #expect(result.status == 1, "\(result.stderr)")
            #expect(result.stderr.hasPrefix(expected), "\(result.stderr)")
            #expect(result.stderr.contains("/nonexistent"), "\(result.stderr)")
            #expect(!result.stderr.contains("Usage:") && !result.stderr.contains("USAGE"), "\(result.stderr)")
        }
    }

    @Test("every error line starts 'error: ', ArgumentParser's own included")
    func oneErrorPrefix() throws {
        for result in [
            try Self.tilt(["watch", "--no-such-option"]), try Self.tiltd(["--no-such-option"]),
            try Self.tilt(["status", "--socket", Self.noDaemon]),
        ] {
            #expect(result.stderr.hasPrefix("error: "), "\(result.stderr)")
            #expect(!result.stderr.contains("Error: "), "\(result.stderr)")
        }
    }

    @Test("a daemon that is not there is said in words, with no NIO call or errno in the message")
    func connectionErrorsShowNoInternals() throws {
        for arguments in [
            ["status"], ["tare"],
            ["record", "--from", "daemon", "--duration", "1", "--output", "/tmp/never-\(getpid()).csv"],
            ["calibrate", "gyro", "--output", "/tmp/never-\(getpid()).calib"],
        ] {
            let result = try Self.tilt(arguments + ["--socket", Self.noDaemon])
            #expect(result.status == 1, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("cannot connect to tiltd at \(Self.noDaemon)"), "\(result.stderr)")
            for leak in ["errno", "descriptor", "NIO", "IOError"] {
                #expect(!result.stderr.contains(leak), "\(arguments): \(result.stderr)")
            }
        }
    }

    @Test("the argument parser's own messages in the house style: lowercase, ';', exit 64 with the usage")
    func parserMessagesInHouseStyle() throws {
        for (result, usage) in [
            (try Self.tilt(["watch", "--bogus"]), "Usage: tilt watch"), (try Self.tiltd(["--bogus"]), "Usage: tiltd"),
        ] {
            #expect(result.status == 64, "\(result.stderr)")
            #expect(result.stderr.hasPrefix("error: unknown option '--bogus'"), "\(result.stderr)")
            #expect(result.stderr.contains(usage), "\(result.stderr)")
        }
        let help = try Self.tilt(["--help"])
        #expect(help.status == 0 && help.stdout.hasPrefix("OVERVIEW:"), "help still goes to stdout with 0")
    }
}
