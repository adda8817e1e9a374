import Foundation
import Synchronization
import Testing
import TiltRenderTestKit
import TiltTestKit

#if canImport(Glibc)
    import Glibc
#endif

/// A running `tiltfx run --headless --stats` whose stdout lines are collected as they arrive.
final class RunningTiltFX: Sendable {
    /// Complete lines and the unfinished rest, filled from the pipe's handler thread.
    final class Lines: Sendable {
        let mutex = Mutex<([String], String)>(([], ""))
    }

    let process: Process
    private let lines = Lines()
    private let errors = Lines()

    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestPaths.executable("tiltfx"))
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["EGL_PLATFORM"] = "surfaceless"
        env["LIBGL_ALWAYS_SOFTWARE"] = "1"
        env.merge(environment) { $1 }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        self.process = process
        let errors = self.errors
        err.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            guard !data.isEmpty else { return }
            errors.mutex.withLock { $0.1 += String(decoding: data, as: UTF8.self) }
        }
        let lines = self.lines
        out.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            guard !data.isEmpty else { return }
            lines.mutex.withLock { state in
                state.1 += String(decoding: data, as: UTF8.self)
                while let nl = state.1.firstIndex(of: "\n") {
                    state.0.append(String(state.1[..<nl]))
                    state.1 = String(state.1[state.1.index(after: nl)...])
                }
            }
        }
        try process.run()
    }

    /// Everything printed on stderr so far (the log).
    var log: String { errors.mutex.withLock { $0.1 } }

    /// Waits up to `timeout` s for `text` in the log.
    func waitForLog(_ text: String, timeout: Double = 15) throws {
        let deadline = Deadline(seconds: timeout)
        while !log.contains(text) {
            guard !deadline.hasPassed, process.isRunning else {
                throw TestError("tiltfx did not log '\(text)' within \(timeout) s; log:\n\(log)")
            }
            usleep(20_000)
        }
    }

    /// The JSON lines so far.
    var objects: [[String: Any]] { lines.mutex.withLock { $0.0 }.compactMap(LineSocket.parse) }

    /// Waits up to `timeout` s for a `mode` line with `mode`.
    func waitForMode(_ mode: String, after count: Int = 0, timeout: Double = 15) throws {
        let deadline = Deadline(seconds: timeout)
        while !objects.filter({ $0["class"] as? String == "mode" }).dropFirst(count)
            .contains(where: { $0["mode"] as? String == mode })
        {
            guard !deadline.hasPassed, process.isRunning else {
                throw TestError("tiltfx did not go \(mode) within \(timeout) s; printed \(objects)")
            }
            usleep(20_000)
        }
    }

    /// Waits for the process to end (it has --seconds) and returns its stats line.
    func finish(timeout: Double = 30) throws -> [String: Any] {
        let deadline = Deadline(seconds: timeout)
        while process.isRunning {
            guard !deadline.hasPassed else {
                kill(process.processIdentifier, SIGKILL)
                throw TestError("tiltfx did not end within \(timeout) s")
            }
            usleep(20_000)
        }
        // The last line may still be in the pipe when the process has ended.
        _ = eventually(timeout: 5) { objects.contains { $0["class"] as? String == "stats" } }
        guard let stats = objects.last(where: { $0["class"] as? String == "stats" }) else {
            throw TestError("no stats line; printed \(objects)")
        }
        return stats
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}

private func mode(_ stats: [String: Any], _ name: String) -> [String: Any] {
    ((stats["modes"] as? [String: Any])?[name] as? [String: Any]) ?? [:]
}

/// `tiltfx run --headless` obeying the power policy, alone and driven by a real tiltd that follows dbusmock's
/// power-profiles-daemon on a private D-Bus.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct PowerGatedRunTests {
    @Test func aFixedStillPolicyDrawsOneFrame() throws {
        let dir = TestPaths.temporaryDirectory("tiltfx")
        let run = try RunningTiltFX([
            "run", "--headless", "--stats", "--presets", GLTestEnvironment.presetsDirectory, "--preset",
            "shadertoy-plasma", "--size", "32x32", "--seconds", "1", "--power-policy", "still",
            "--socket", dir.appendingPathComponent("none.sock").path,
        ])
        let stats = try run.finish()
        #expect(run.process.terminationStatus == 0)
        #expect(mode(stats, "still")["drawn"] as? Int == 1, "one still frame, even of an animated preset: \(stats)")
        #expect(stats["drawn"] as? Int == 1)
    }

    @Test func fullModeDrawsAnAnimatedPresetContinuously() throws {
        let dir = TestPaths.temporaryDirectory("tiltfx")
        let run = try RunningTiltFX([
            "run", "--headless", "--stats", "--presets", GLTestEnvironment.presetsDirectory, "--preset",
            "shadertoy-plasma", "--size", "32x32", "--seconds", "1", "--fps", "20",
            "--socket", dir.appendingPathComponent("none.sock").path,
        ])
        let stats = try run.finish()
        let full = mode(stats, "full")
        #expect((full["drawn"] as? Int ?? 0) >= 5, "no daemon counts as mains: full mode draws: \(stats)")
        #expect(mode(stats, "still")["drawn"] as? Int == 0)
    }

    @Test(
        "power-saver makes tiltfx go still and the daemon's sensor idle; balanced brings both back",
        .enabled(if: PrivateBus.isAvailable, "needs dbus-daemon and python3-dbusmock (scripts/bootstrap installs them)")
    )
    func powerSaverGoesStillAndBack() throws {
        let bus = try PrivateBus()
        try bus.startPowerProfilesDaemon(profile: "balanced")
        let fake = try FakePowerSupply()
        let dir = TestPaths.temporaryDirectory("tiltfx")
        let socket = dir.appendingPathComponent("d.sock").path
        let daemon = try DaemonProcess(
            socketPath: socket,
            arguments: [
                "--replay", TestPaths.broadExcerpt, "--loop", "--power-supply-root", fake.root, "--platform-profile",
                fake.platformProfile, "--system-bus", bus.address, "--power-poll", "600",
            ])
        defer { daemon.stop() }
        let observer = try LineSocket(path: socket)
        _ = try #require(observer.read(class: "hello"))
        func status() throws -> [String: Any] {
            try observer.send(#"{"cmd":"status"}"#)
            return try #require(observer.read(class: "status", timeout: 5))
        }
        func waitForSensor(_ state: String, watchers: Int) throws {
            let deadline = Deadline(seconds: 10)
            while true {
                let s = try status()
                if s["sensor"] as? String == state && s["watchers"] as? Int == watchers { return }
                guard !deadline.hasPassed else {
                    throw TestError("sensor never \(state) with \(watchers) watchers; last status \(s)")
                }
                usleep(50_000)
            }
        }

        let run = try RunningTiltFX([
            "run", "--headless", "--stats", "--presets", GLTestEnvironment.presetsDirectory, "--preset",
            "tilt-specular", "--size", "32x32", "--seconds", "8", "--fps", "20", "--socket", socket,
        ])
        try run.waitForMode("full")
        try waitForSensor("active", watchers: 1)

        try bus.setActiveProfile("power-saver")
        try run.waitForMode("still")
        let still = try #require(run.objects.last { $0["class"] as? String == "mode" })
        #expect(still["profile"] as? String == "power-saver" && still["lowPower"] as? Bool == true)
        try waitForSensor("idle", watchers: 0)
        // Stay still for a while: no frames are drawn, so the daemon reads nothing either.
        let before = try #require(try status()["samples"] as? Int)
        usleep(1_000_000)
        let after = try #require(try status()["samples"] as? Int)
        #expect(before == after, "the sensor stays off while tiltfx is still")

        try bus.setActiveProfile("balanced")
        try run.waitForMode("full", after: 1)
        try waitForSensor("active", watchers: 1)

        let stats = try run.finish()
        #expect(run.process.terminationStatus == 0)
        let stillStats = mode(stats, "still")
        let fullStats = mode(stats, "full")
        #expect(stillStats["entered"] as? Int == 1 && stillStats["drawn"] as? Int == 1, "one still frame: \(stats)")
        #expect((stillStats["seconds"] as? Double ?? 0) >= 1, "\(stats)")
        #expect(fullStats["entered"] as? Int == 2 && (fullStats["drawn"] as? Int ?? 0) > 2, "\(stats)")
    }

    @Test("the window (SDL offscreen driver): capped on battery, still on a low battery, full on mains")
    func windowFollowsTheBattery() throws {
        let fake = try FakePowerSupply()
        try fake.battery(capacity: 43)
        let dir = TestPaths.temporaryDirectory("tiltfx")
        let socket = dir.appendingPathComponent("d.sock").path
        let daemon = try DaemonProcess(
            socketPath: socket,
            arguments: [
                "--replay", TestPaths.broadExcerpt, "--loop", "--power-supply-root", fake.root, "--platform-profile",
                fake.platformProfile, "--system-bus", "unix:path=\(dir.path)/no-bus", "--power-poll", "0.1",
            ])
        defer { daemon.stop() }
        _ = try LineSocket(path: socket)  // the daemon is up
        let window = try RunningTiltFX(
            [
                "run", "--presets", GLTestEnvironment.presetsDirectory, "--preset", "tilt-specular", "--size",
                "64x64", "--seconds", "30", "--socket", socket,
            ], environment: ["SDL_VIDEODRIVER": "offscreen"])
        try window.waitForLog("power: capped (30 fps, motion 15 Hz)")
        try fake.battery(capacity: 9)
        try window.waitForLog("power: still (one frame, no motion)")
        try fake.mains(capacity: 9)
        try window.waitForLog("power: full (display rate, motion 60 Hz)")
    }
}
