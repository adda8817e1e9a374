import Foundation
import Testing
import TiltDaemon
import TiltTestKit

#if canImport(Glibc)
    import Glibc
#endif

/// The daemon under a service manager: SIGHUP reload, socket activation, readiness notification, journal logging.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct ServiceLifecycleTests {
    private func statusCalibration(_ socket: LineSocket) throws -> String {
        let status = try #require(try socket.status(), "no status within 5 s")
        return try #require(status["calibration"] as? String)
    }

    @Test("SIGHUP reloads limits, log level, socket group and calibration, keeping clients; a bad config is refused")
    func sighupReloads() throws {
        let dir = TestPaths.temporaryDirectory("lcH")
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = try ServiceFixtures.write("format = 1\n[gyro]\nbias = 0.01, 0, 0\n", to: "a.calib", in: dir)
        let second = try ServiceFixtures.write("format = 1\n[gyro]\nbias = 0.02, 0, 0\n", to: "b.calib", in: dir)
        func config(maxClients: Int, calibration: String, level: String = "info", group: String = "root")
            -> String
        {
            """
            log_level = \(level)
            socket_group = \(group)
            replay = \(TestPaths.broadExcerpt)
            loop = true
            speed = 4
            power = off
            max_clients = \(maxClients)
            calibration = \(calibration)
            """
        }
        let file = try ServiceFixtures.write(config(maxClients: 2, calibration: first), to: "tiltd.conf", in: dir)
        let path = dir.appendingPathComponent("d.sock").path
        let daemon = try ServiceProcess.tiltd(["--config", file, "--socket", path])
        let watcher = try LineSocket(path: path)
        try watcher.send(#"{"cmd":"watch","rate":20}"#)
        _ = try #require(watcher.read(class: "attitude", timeout: 10), "\(daemon.log)")
        let other = try LineSocket(path: path)
        #expect(try statusCalibration(other) == "\(first): forced by --calibration")
        let third = try LineSocket(path: path)
        #expect(third.read(class: "error")?["message"] as? String != nil, "max_clients = 2 holds before the reload")

        try other.send("not json")
        _ = try #require(other.read(class: "error"))
        _ = try ServiceFixtures.write(
            config(maxClients: 5, calibration: second, level: "debug", group: "nogroup"), to: "tiltd.conf",
            in: dir)
        daemon.send(SIGHUP)
        #expect(daemon.waitForLog("reloaded"), "\(daemon.log)")
        #expect(daemon.log.contains("max_clients=5"))
        var st = stat()
        let nogroup = try UnixGroup.lookup("nogroup", key: "test")
        #expect(lstat(path, &st) == 0 && st.st_gid == nogroup.gid, "socket_group = nogroup applies on reload")
        // The log level went from info to debug: a bad line is now logged.
        #expect(!daemon.log.contains("bad line"))
        try other.send("not json either")
        _ = try #require(other.read(class: "error"))
        #expect(daemon.waitForLog("bad line"), "log_level = debug applies after the reload")
        // The watcher stayed connected and keeps getting frames.
        let seq = try #require(watcher.read(class: "attitude")?["seq"] as? Int)
        let later = try #require(watcher.read(class: "attitude")?["seq"] as? Int)
        #expect(later > seq)
        #expect(try statusCalibration(other) == "\(second): forced by --calibration")
        // Room for three more now.
        let more = try (0..<3).map { _ in try LineSocket(path: path) }
        for client in more { #expect(client.read(class: "hello") != nil) }

        // A broken config is logged and the one in force is kept.
        _ = try ServiceFixtures.write("max_clients = many\n", to: "tiltd.conf", in: dir)
        daemon.send(SIGHUP)
        #expect(daemon.waitForLog("reload failed"), "\(daemon.log)")
        #expect(daemon.log.contains("tiltd.conf:1: key 'max_clients'"))
        #expect(try statusCalibration(other) == "\(second): forced by --calibration")
        #expect(watcher.read(class: "attitude") != nil)
        #expect(daemon.stop() == 0)
    }

    @Test("socket activation: tiltd serves the socket on fd 3, notifies READY=1, and leaves the file to systemd")
    func socketActivation() throws {
        let dir = TestPaths.temporaryDirectory("lcA")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("act.sock").path
        let notifyPath = dir.appendingPathComponent("notify.sock").path
        let notify = try DatagramListener(path: notifyPath)
        let launcher = try ServiceFixtures.write(ServiceFixtures.pythonLauncher, to: "launch.py", in: dir)
        let daemon = try ServiceProcess(
            executable: "/usr/bin/python3",
            arguments: [
                launcher, "--activate", path, "--", TestPaths.executable("tiltd"), "--replay", TestPaths.broadExcerpt,
                "--no-power", "--socket", path,
            ],
            environment: ["NOTIFY_SOCKET": notifyPath], socketPath: path)
        let ready = try #require(notify.receive(timeout: 10), "no notification; \(daemon.log)")
        #expect(ready.contains("READY=1"), "\(ready)")
        let (client, _) = try daemon.greetedClient()
        #expect(try client.status() != nil)
        #expect(daemon.log.contains("listening on the socket systemd passed"), "\(daemon.log)")
        #expect(daemon.stop() == 0)
        #expect(notify.receive(timeout: 5)?.contains("STOPPING=1") == true)
        #expect(FileManager.default.fileExists(atPath: path), "the socket file belongs to systemd: it stays")
    }

    @Test("--log-format journal writes <N>message key=value lines without timestamps; auto follows JOURNAL_STREAM")
    func journalFormat() throws {
        let dir = TestPaths.temporaryDirectory("lcJ")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = DaemonProcess.temporarySocket(in: dir)
        let daemon = try DaemonProcess.replaying(
            ["--no-power", "--log-format", "journal", "--log-level", "debug"], in: dir)
        let (client, _) = try daemon.greetedClient()
        try client.send("not json")
        _ = try #require(client.read(class: "error"))
        #expect(daemon.waitForLog("client connected"))
        #expect(daemon.stop() == 0)
        let lines = daemon.log.split(separator: "\n").map(String.init)
        #expect(!lines.isEmpty)
        for line in lines {
            #expect(line.range(of: #"^<[2-7]>\S"#, options: .regularExpression) != nil, "\(line)")
            #expect(line.range(of: #"\d{4}-\d\d-\d\dT"#, options: .regularExpression) == nil, "timestamp in \(line)")
        }
        #expect(lines.contains { $0.hasPrefix("<5>listening") && $0.contains("socket=\(path)") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("<6>client connected") && $0.contains("uid=0") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("<7>bad line") }, "\(lines)")

        // auto: journal when JOURNAL_STREAM names standard error (the launcher sets it, as systemd would).
        let launcher = try ServiceFixtures.write(ServiceFixtures.pythonLauncher, to: "launch.py", in: dir)
        let auto = try ServiceProcess(
            executable: "/usr/bin/python3",
            arguments: [
                launcher, "--journal", "--", TestPaths.executable("tiltd"), "--replay", TestPaths.broadExcerpt,
                "--no-power", "--socket", path,
            ])
        #expect(auto.waitForLog("<5>listening"), "\(auto.log)")
        #expect(auto.stop() == 0)
        let plain = try ServiceProcess.tiltd(
            ["--replay", TestPaths.broadExcerpt, "--no-power", "--socket", path],
            environment: ["JOURNAL_STREAM": "1:1"])
        #expect(plain.waitForLog("listening"), "\(plain.log)")
        #expect(plain.stop() == 0)
        #expect(!plain.log.contains("<5>"), "a JOURNAL_STREAM that is not stderr means plain: \(plain.log)")
    }
}

/// A Unix datagram socket standing in for systemd's `$NOTIFY_SOCKET`.
private final class DatagramListener {
    let fd: Int32

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { throw TestError("socket() failed: errno \(errno)") }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (i, b) in Array(path.utf8).prefix(raw.count - 1).enumerated() { raw[i] = b }
        }
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard rc == 0 else { throw TestError("bind(\(path)) failed: errno \(errno)") }
    }

    deinit { close(fd) }

    /// The next datagram as text, or `nil` when none comes within `timeout` seconds.
    func receive(timeout: Double) -> String? {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&pfd, 1, Int32(timeout * 1000)) > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        return n > 0 ? String(decoding: buffer[..<n], as: UTF8.self) : nil
    }
}
