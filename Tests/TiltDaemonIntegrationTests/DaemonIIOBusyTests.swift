import Foundation
import Testing
import TiltCore
import TiltTestKit

#if canImport(Glibc)
    import Glibc
#endif

/// `tiltd` on a fake buffered IMU whose `/dev/iio:device0` another process holds open: the node is a FUSE file that
/// refuses a second open with `EBUSY` as the kernel's IIO character device does (``FakeIIOTree``'s exclusive node),
/// the holder a `sleep` started with the node open, as `iio-sensor-proxy` would hold it.
@Suite(
    .serialized, .timeLimit(.minutes(2)),
    .enabled(
        if: FakeIIOTree.busyNodesWork, "needs unshare -rm, a usable /dev/fuse and python3-fusepy (scripts/bootstrap)"))
struct DaemonIIOBusyTests {

    /// The `t` of the raw samples among `lines`.
    private func sampleTimes(_ lines: [String]) -> [Double] {
        lines.compactMap { LineSocket.parse($0) }.filter { $0["class"] as? String == "sample" }.compactMap {
            $0["t"] as? Double
        }
    }

    /// Starts tiltd on `tree` with `/dev/iio:device0` held by a `sleep`, and waits for its socket (`ROOT/tiltd.sock`).
    /// Its log goes to `ROOT/tiltd.log`: the tests do not wait for the child to end, they check the socket is gone.
    private func startDaemon(in tree: FakeIIOTree) throws -> (FakeIIOTree.Child, pid_t) {
        let socketPath = tree.root.appendingPathComponent("tiltd.sock").path
        let log = tree.root.appendingPathComponent("tiltd.log").path
        let daemon = try tree.start(
            ["/bin/sh", "-c", #"exec "$@" 2>"$0""#, log, TestPaths.executable("tiltd"), "--socket", socketPath],
            exclusiveNode: 0, holder: true)
        guard let holder = tree.holderPID() else {
            kill(daemon.process.processIdentifier, SIGKILL)
            throw TestError("the holder of /dev/iio:device0 did not start")
        }
        guard eventually({ FileManager.default.fileExists(atPath: socketPath) }) else {
            kill(holder, SIGKILL)
            kill(daemon.process.processIdentifier, SIGKILL)
            throw TestError("tiltd did not create its socket")
        }
        return (daemon, holder)
    }

    @Test("a busy buffer is polled at the rate asked, status and hello say so and name the holder, the buffer returns")
    func busyBufferFallsBackToPolling() throws {
        let tree = try FakeIIOTree()
        let type = "le:s16/16>>0"
        try tree.addDevice(
            0, name: "bmi160", label: "accel-display", kinds: ["accel", "anglvel"],
            scale: ["accel": "0.001", "anglvel": "0.001"], raw: ["accel": [0, 0, 9807]], rates: "25 50 100 200",
            scan: .init(kinds: ["accel", "anglvel"], type: type))
        let (daemon, holder) = try startDaemon(in: tree)
        defer {
            kill(holder, SIGKILL)
            kill(daemon.process.processIdentifier, SIGKILL)
        }
        let socketPath = tree.root.appendingPathComponent("tiltd.sock").path
        let log = tree.root.appendingPathComponent("tiltd.log").path
        let watcher = try LineSocket(path: socketPath)
        _ = try #require(watcher.read(class: "hello"))

        // 30 Hz asks for the device's 50 Hz; the busy buffer is polled at that rate.
        try watcher.send(#"{"cmd":"watch","rate":30,"raw":true}"#)
        let busyEvent = try #require(
            watcher.read(class: "sensor", timeout: 10).flatMap { first in
                (first["reason"] as? String)?.contains("busy") == true ? first : watcher.read(class: "sensor")
            }, "a sensor event says the buffer is busy")
        let reason = try #require(busyEvent["reason"] as? String)
        #expect(reason.contains("iio:device0") && reason.contains("sleep (pid \(holder))") && reason.contains("50 Hz"))
        #expect(tree.read(device: 0, "buffer/enable") == "0", "the held buffer is not enabled")

        let observer = try LineSocket(path: socketPath)
        let hello = try #require(observer.read(class: "hello"))
        let sensors = try #require(hello["sensors"] as? [[String: Any]])
        #expect(sensors.first?["mode"] as? String == "polled", "hello says polled while the buffer is busy: \(sensors)")
        let status = try #require(try observer.status())
        #expect(status["sensorMode"] as? String == "polled")
        let busy = try #require(status["busy"] as? [String: Any], "status has busy: \(status)")
        #expect(busy["device"] as? String == "iio:device0")
        #expect(busy["node"] as? String == "/dev/iio:device0")
        #expect(busy["holder"] as? String == "sleep (pid \(holder))")
        #expect(busy["holderPid"] as? Int == Int(holder))
        #expect(busy["rate"] as? Double == 50)
        let retryIn = try #require(busy["retryIn"] as? Double)
        #expect(retryIn >= 0 && retryIn <= 2, "the first retry comes within 2 s: \(retryIn)")

        let human = try ChildProcess.run(TestPaths.executable("tilt"), ["status", "--socket", socketPath])
        #expect(human.stdout.contains("active (polled)"), "\(human.stdout)")
        #expect(human.stdout.contains("/dev/iio:device0 held by sleep (pid \(holder)): polled at 50.0 Hz"))

        // Polled samples reach the watcher at the polled rate, read from the `_raw` attributes.
        let polled = sampleTimes(watcher.readLines(until: Deadline(seconds: 1.0)))
        let span = (polled.last ?? 0) - (polled.first ?? 0)
        let rate = Double(polled.count - 1) / max(span, 1e-9)
        #expect(polled.count >= 30 && abs(rate - 50) < 8, "\(polled.count) polled samples at \(rate) Hz")
        #expect(zip(polled, polled.dropFirst()).allSatisfy { $0 < $1 }, "polled times increase")

        // The holder lets go: the buffer is tried again (2 s, then 4 s) and read once more.
        kill(holder, SIGKILL)
        #expect(eventually(timeout: 15, { tree.read(device: 0, "buffer/enable") == "1" }), "the buffer comes back")
        let lastPolled = sampleTimes(watcher.readLines(until: Deadline(seconds: 0.1))).last ?? polled.last!
        let start = Int64(monotonicSeconds() * 1e9)
        let scans = (0..<50).map { i in
            FakeIIOTree.pack([0, 0, 9807, 0, 0, 0], type: type, timestampNs: start + Int64(i) * 20_000_000)
        }
        try tree.feed(0, scans: scans, interval: 0.002)
        let buffered = sampleTimes(watcher.readLines(until: Deadline(seconds: 1.0)))
        #expect(buffered.count >= 40, "buffered samples arrive: \(buffered.count)")
        let all = [lastPolled] + buffered
        #expect(zip(all, all.dropFirst()).allSatisfy { $0 < $1 }, "time never goes backwards across the switch")
        if let first = buffered.first { #expect(first - lastPolled < 0.5, "no long gap: \(first - lastPolled) s") }

        let after = try #require(try observer.status())
        #expect(after["sensorMode"] as? String == "buffered")
        #expect(after["busy"] == nil, "busy is gone: \(after)")
        kill(daemon.process.processIdentifier, SIGTERM)
        #expect(eventually { !FileManager.default.fileExists(atPath: socketPath) }, "tiltd shuts down cleanly")
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(text.contains("warning tiltd: sensor busy: the IIO buffer of iio:device0 is busy"), "\(text)")
        #expect(text.contains("sensor buffer free again"), "\(text)")
    }

    @Test("a busy buffer is polled at 100 Hz at most, whatever the device's buffer runs at")
    func polledRateIsCapped() throws {
        let tree = try FakeIIOTree()
        try tree.addDevice(
            0, name: "bmi160", kinds: ["accel"], scale: ["accel": "0.001"], raw: ["accel": [0, 0, 9807]],
            rates: "25 50 100 200 400", scan: .init(kinds: ["accel"], type: "le:s16/16>>0"))
        let (daemon, holder) = try startDaemon(in: tree)
        defer {
            kill(holder, SIGKILL)
            kill(daemon.process.processIdentifier, SIGKILL)
        }
        let watcher = try LineSocket(path: tree.root.appendingPathComponent("tiltd.sock").path)
        try watcher.send(#"{"cmd":"watch","rate":150,"raw":true}"#)
        #expect(eventually { tree.read(device: 0, "sampling_frequency") == "200" }, "150 Hz asks for the device's 200")
        _ = watcher.readLines(until: Deadline(seconds: 0.3))
        let polled = sampleTimes(watcher.readLines(until: Deadline(seconds: 1.0)))
        let rate = Double(polled.count - 1) / max((polled.last ?? 0) - (polled.first ?? 0), 1e-9)
        #expect(polled.count >= 60 && abs(rate - 100) < 15, "\(polled.count) polled samples at \(rate) Hz")
        let status = try #require(try watcher.status())
        let busy = try #require(status["busy"] as? [String: Any], "\(status)")
        #expect(busy["rate"] as? Double == 100)
    }
}
