import Testing
import TiltCore
import TiltEvdev
import TiltSensors
import TiltTestKit

@testable import TiltDaemon

/// The `evdev` setting: a bare `--evdev` means `auto`, the source it makes, and its conflict with `replay`.
@Suite struct EvdevOptionsTests {
    @Test(
        "a bare --evdev gets auto written in; a value, --evdev=…, other flags and what follows -- are left alone",
        arguments: [
            (["--evdev"], ["--evdev", "auto"]),
            (["--evdev", "--check"], ["--evdev", "auto", "--check"]),
            (["--evdev", "-v"], ["--evdev", "auto", "-v"]),
            (["--check", "--evdev", "/dev/input/event3"], ["--check", "--evdev", "/dev/input/event3"]),
            (["--evdev=/dev/input/event3"], ["--evdev=/dev/input/event3"]),
            (["--uri", "local:", "--evdev"], ["--uri", "local:", "--evdev", "auto"]),
            (["--", "--evdev"], ["--", "--evdev"]),
            (["--socket", "/s", "--speed", "2"], ["--socket", "/s", "--speed", "2"]),
            ([], []),
        ])
    func bareValues(given: [String], expected: [String]) {
        #expect(DaemonOptions.givingBareValues(given) == expected)
    }

    @Test("evdev auto reads the first motion sensor found, a path that node; with replay it is refused")
    func configuration() throws {
        var options = DaemonOptions()
        options.evdev = "auto"
        #expect(try options.makeConfiguration().source == .init(EvdevMotionSource.Configuration(path: nil)))
        options.evdev = "/dev/input/by-id/usb-Sony-event-joystick"
        #expect(
            try options.makeConfiguration().source
                == .init(EvdevMotionSource.Configuration(path: "/dev/input/by-id/usb-Sony-event-joystick")))
        options.replay = "/tmp/x.csv"
        let error = #expect(throws: DaemonError.self) { try options.makeConfiguration() }
        #expect(error?.message == "replay and evdev exclude each other: a log or a live motion sensor; keep one")
    }

    @Test("tiltd refuses --evdev with --replay in one clear line, and a bare --evdev before another flag parses")
    func tiltdCommandLine() throws {
        let tiltd = TestPaths.executable("tiltd")
        let both = try ChildProcess.run(tiltd, ["--evdev", "--replay", "/tmp/x.csv", "--check"], timeout: 20)
        #expect(both.status == 1)
        #expect(both.stdout.contains("FAIL options: replay and evdev exclude each other"), "\(both.stdout)")
        let missing = try ChildProcess.run(
            tiltd, ["--evdev", "/dev/input/event-none", "--check", "--socket", "/tmp/tilt-evdev-check.sock"],
            timeout: 20)
        #expect(missing.status == 1)
        #expect(
            missing.stdout.contains(
                "FAIL source: cannot read an evdev motion sensor: /dev/input/event-none does not exist"),
            "\(missing.stdout)")
    }
}
