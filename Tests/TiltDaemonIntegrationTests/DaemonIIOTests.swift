import Foundation
import Testing
import TiltTestKit

#if canImport(Glibc)
    import Glibc
#endif

/// `tiltd` without `--replay`, reading a fake buffered IMU through the real libiio local backend in a private mount
/// namespace (see ``FakeIIOTree``), driven through its socket from outside the namespace.
@Suite(
    .serialized, .timeLimit(.minutes(2)),
    .enabled(if: FakeIIOTree.namespacesWork, "unprivileged user+mount namespaces (unshare -rm) are not permitted here"))
struct DaemonIIOTests {

    @Test("the IMU's buffer is enabled by the first watcher at the rate it needs, fused, and disabled when it stops")
    func liveIIOOnDemand() throws {
        let tree = try FakeIIOTree()
        let type = FakeIIOTree.imuScanType
        try tree.addDisplayIMU()
        let socketPath = tree.root.appendingPathComponent("tiltd.sock").path
        let daemon = try tree.start([TestPaths.executable("tiltd"), "--socket", socketPath, "--log-level", "debug"])
        defer {
            if daemon.process.isRunning { kill(daemon.process.processIdentifier, SIGKILL) }
        }
        #expect(eventually { FileManager.default.fileExists(atPath: socketPath) }, "tiltd creates its socket")
        let client = try LineSocket(path: socketPath)
        let hello = try #require(client.read(class: "hello"))
        let sensors = try #require(hello["sensors"] as? [[String: Any]])
        #expect(sensors.contains { ($0["name"] as? String)?.contains("bmi160") == true }, "\(sensors)")
        #expect(tree.read(device: 0, "buffer/enable") == "0", "nothing runs before anyone watches")

        try client.send(#"{"cmd":"watch","rate":30}"#)
        #expect(eventually { tree.read(device: 0, "buffer/enable") == "1" }, "the first watch enables the buffer")
        #expect(tree.read(device: 0, "sampling_frequency") == "50", "the lowest available rate that serves 30 Hz")
        // Level and still: gravity on +z (9.807 m/s² = 9807 counts at 0.001), no rotation; 100 scans at 50 Hz.
        let scans = (0..<100).map { i in
            FakeIIOTree.pack([0, 0, 9807, 0, 0, 0], type: type, timestampNs: 1_000_000_000 + Int64(i) * 20_000_000)
        }
        try tree.feed(0, scans: scans, interval: 0.002)
        var frame: [String: Any]?
        for _ in 0..<40 {
            guard let f = client.read(class: "attitude") else { break }
            frame = f
        }
        let last = try #require(frame, "frames arrive from the live sensor")
        let gravity = try #require(last["gravity"] as? [Double])
        // Gravity in the device frame points down: -z for a device lying face up.
        #expect(gravity.count == 3 && abs(gravity[2] + 9.80665) < 0.05, "level device: \(gravity)")
        let tilt = try #require(last["tilt"] as? [Double])
        #expect(tilt.allSatisfy { abs($0) < 0.01 })

        try client.send(#"{"cmd":"watch","enable":false}"#)
        #expect(eventually { tree.read(device: 0, "buffer/enable") == "0" }, "the buffer is disabled with no watcher")
        kill(daemon.process.processIdentifier, SIGTERM)
        let result = try daemon.wait()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: socketPath), "the socket file is removed on SIGTERM")
    }
}
