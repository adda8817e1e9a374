import Foundation
import Testing
import TiltDaemon
import TiltTestKit

#if canImport(Glibc)
    import Glibc
#endif

/// Socket permissions and who may send shared commands, with clients running as another uid (`setpriv`).
/// CI runs the tests as root, which `chown` and `setpriv` need.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct ServiceSecurityTests {
    private static let nogroup = try? UnixGroup.lookup("nogroup", key: "test")
    private static let daemonGroup = try? UnixGroup.lookup("daemon", key: "test")

    /// Runs the python client as uid 65534 with primary group nogroup and `groups` as supplementary groups.
    private func asNobody(socket: String, command: String, groups: [UInt32], in dir: URL) throws -> String {
        let client = try ServiceFixtures.write(ServiceFixtures.pythonClient, to: "client.py", in: dir)
        chmod(client, 0o644)
        let groupFlag = groups.isEmpty ? "--clear-groups" : "--groups=" + groups.map(String.init).joined(separator: ",")
        let result = try ChildProcess.run(
            "/usr/bin/setpriv",
            ["--reuid=65534", "--regid=65534", groupFlag, "/usr/bin/python3", client, socket, command], timeout: 20)
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    @Test(
        "the socket is created 0660 and given to socket_group",
        .enabled(if: getuid() == 0, "needs root to give the socket to another group"))
    func socketModeAndGroup() throws {
        let group = try #require(Self.nogroup)
        let dir = ServiceFixtures.directory("secM")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = DaemonProcess.temporarySocket(in: dir)
        let daemon = try DaemonProcess.replaying(["--no-power", "--socket-group", group.name], in: dir)
        _ = try daemon.greetedClient()
        var st = stat()
        #expect(lstat(path, &st) == 0)
        #expect(st.st_mode & 0o7777 == 0o660, "mode \(String(st.st_mode & 0o7777, radix: 8))")
        #expect(st.st_gid == group.gid)
        #expect(daemon.log.contains("group=nogroup"), "\(daemon.log)")
        #expect(daemon.stop() == 0)
    }

    @Test("an unknown socket_group is a clear error")
    func unknownGroup() throws {
        let dir = TestPaths.temporaryDirectory("secU")
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try ChildProcess.run(
            TestPaths.executable("tiltd"),
            [
                "--replay", TestPaths.broadExcerpt, "--socket", dir.appendingPathComponent("d.sock").path,
                "--socket-group", "no-such-group-tilt",
            ], timeout: 20)
        #expect(result.status == 1)
        #expect(result.stderr.contains("socket_group: group 'no-such-group-tilt' does not exist"), "\(result.stderr)")
    }

    @Test(
        "tare is refused to another uid, allowed to a member of admin_group; status stays open to anyone",
        .enabled(if: getuid() == 0, "needs root to run a client as another uid"))
    func tareNeedsAdmin() throws {
        let nogroup = try #require(Self.nogroup)
        let admin = try #require(Self.daemonGroup)
        let dir = ServiceFixtures.directory("secT")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = DaemonProcess.temporarySocket(in: dir)
        let daemon = try DaemonProcess.replaying(
            ["--no-power", "--socket-group", nogroup.name, "--admin-group", admin.name], in: dir)
        _ = try daemon.greetedClient()

        let refused = try asNobody(socket: path, command: #"{"cmd":"tare"}"#, groups: [], in: dir)
        let error = try #require(LineSocket.parse(refused), "\(refused)")
        #expect(error["class"] as? String == "error")
        let message = try #require(error["message"] as? String)
        #expect(message.hasPrefix("tare refused: uid 65534 is not the daemon's uid 0"), "\(message)")
        #expect(message.contains("admin group '\(admin.name)'") && message.contains("usermod -aG"), "\(message)")
        #expect(daemon.waitForLog("tare refused"))
        #expect(daemon.log.contains("uid=65534"))

        let status = try asNobody(socket: path, command: #"{"cmd":"status"}"#, groups: [], in: dir)
        #expect(LineSocket.parse(status)?["class"] as? String == "status", "\(status)")

        let allowed = try asNobody(socket: path, command: #"{"cmd":"tare"}"#, groups: [admin.gid], in: dir)
        #expect(LineSocket.parse(allowed)?["class"] as? String == "tare", "\(allowed)")

        // The daemon's own uid (root here) may always tare.
        #expect(try daemon.connect().request(#"{"cmd":"tare"}"#, expecting: "tare") != nil)
        #expect(daemon.stop() == 0)
    }

    @Test(
        "without admin_group only the daemon's uid and root may tare, and the refusal says how to allow it",
        .enabled(if: getuid() == 0, "needs root to run a client as another uid"))
    func tareWithoutAdminGroup() throws {
        let nogroup = try #require(Self.nogroup)
        let dir = ServiceFixtures.directory("secN")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = DaemonProcess.temporarySocket(in: dir)
        let daemon = try DaemonProcess.replaying(["--no-power", "--socket-group", nogroup.name], in: dir)
        _ = try daemon.greetedClient()
        let refused = try asNobody(socket: path, command: #"{"cmd":"tare"}"#, groups: [1], in: dir)
        let message = try #require(LineSocket.parse(refused)?["message"] as? String, "\(refused)")
        #expect(message.contains("no admin_group is configured"), "\(message)")
        #expect(daemon.stop() == 0)
    }

    @Test(
        "undoing a tare is refused to another uid, like tare, and allowed to a member of admin_group",
        .enabled(if: getuid() == 0, "needs root to run a client as another uid"))
    func tareResetNeedsAdmin() throws {
        let nogroup = try #require(Self.nogroup)
        let admin = try #require(Self.daemonGroup)
        let dir = ServiceFixtures.directory("secR")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = DaemonProcess.temporarySocket(in: dir)
        let daemon = try DaemonProcess.replaying(
            ["--no-power", "--socket-group", nogroup.name, "--admin-group", admin.name], in: dir)
        _ = try daemon.greetedClient()
        let reset = #"{"cmd":"tare","reset":true}"#
        let refused = try asNobody(socket: path, command: reset, groups: [], in: dir)
        let message = try #require(LineSocket.parse(refused)?["message"] as? String, "\(refused)")
        #expect(message.hasPrefix("tare refused: uid 65534 is not the daemon's uid 0"), "\(message)")
        let allowed = try asNobody(socket: path, command: reset, groups: [admin.gid], in: dir)
        #expect(LineSocket.parse(allowed)?["class"] as? String == "tare", "\(allowed)")
        #expect(daemon.stop() == 0)
    }
}
