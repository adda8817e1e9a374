import Logging
import Testing
import TiltCore

@testable import TiltDaemon

/// The pieces of the service policy on their own: token bucket, access rule, option merging, log priorities.
@Suite
struct ServicePolicyTests {
    @Test("the token bucket passes a burst, then the rate, and refills with time")
    func tokenBucket() {
        var bucket = TokenBucket(rate: 10, burst: 20)
        let passed = (0..<30).filter { _ in bucket.take(at: 100) }.count
        #expect(passed == 20)
        let early = bucket.take(at: 100.05)
        let refilled = bucket.take(at: 100.11)
        let again = bucket.take(at: 100.11)
        #expect(!early)
        #expect(refilled, "one token after 0.1 s at 10/s")
        #expect(!again)
        let later = (0..<30).filter { _ in bucket.take(at: 200) }.count
        #expect(later == 20, "a quiet spell refills no more than the burst")
        var off = TokenBucket(rate: 0, burst: 0)
        off.configure(rate: 5, burst: 10)
        let burst = (0..<20).filter { _ in off.take(at: 1) }.count
        #expect(burst == 10, "turning the limit on starts full")
    }

    @Test("shared commands: the daemon's uid, root and admin-group members pass; others get a reason")
    func refusal() {
        let admin = UnixGroup(name: "tilt-admin", gid: 4242)
        let policy = ServicePolicy(adminGroup: admin)
        let stranger = PeerCredentials(uid: 1000, gid: 1000, pid: 1)
        let root = PeerCredentials(uid: 0, gid: 0, pid: 1)
        let owner = PeerCredentials(uid: 500, gid: 5, pid: 1)
        #expect(policy.refusal(command: "tare", peer: root, groups: [], daemonUID: 500) == nil)
        #expect(policy.refusal(command: "tare", peer: owner, groups: [], daemonUID: 500) == nil)
        #expect(policy.refusal(command: "tare", peer: stranger, groups: [1000, 4242], daemonUID: 500) == nil)
        let refused = policy.refusal(command: "tare", peer: stranger, groups: [1000], daemonUID: 500)
        #expect(
            refused
                == "tare refused: uid 1000 is neither the daemon's uid 500 nor root and not in admin group "
                + "'tilt-admin'; add the user to that group (usermod -aG tilt-admin USER, then log in again) or run "
                + "as uid 500 or root")
        let none = ServicePolicy().refusal(command: "tare", peer: stranger, groups: [4242], daemonUID: 0)
        #expect(none?.contains("no admin_group is configured") == true)
        #expect(ServicePolicy().refusal(command: "tare", peer: nil, groups: [], daemonUID: 0) != nil)
    }

    @Test("a calibration flag replaces the file's whole calibration choice; other flags override key by key")
    func overlay() throws {
        var file = DaemonOptions()
        file.noCalibration = true
        file.maxClients = 10
        file.commandsPerSecond = 5
        var flags = DaemonOptions()
        flags.calibration = "/etc/x.calib"
        flags.maxClients = 20
        let merged = file.overlaid(by: flags)
        #expect(merged.noCalibration == nil && merged.calibration == "/etc/x.calib")
        #expect(merged.maxClients == 20 && merged.commandsPerSecond == 5)
        var loopOnly = DaemonOptions()
        loopOnly.loop = true
        #expect(throws: DaemonError.self) { try loopOnly.makeConfiguration() }
    }

    @Test("values: '#' starts a comment only after a space; quotes keep it; escapes work")
    func values() throws {
        let file = try ConfigFile.parse(
            "uri = ip:host#1\nsocket = \"/tmp/a \\\"b\\\".sock\" # c\nsystem_bus=unix:path=/x # y\n", path: "v.conf")
        #expect(file.entries.map(\.value) == ["ip:host#1", "/tmp/a \"b\".sock", "unix:path=/x"])
        let error = #expect(throws: ConfigError.self) { try ConfigFile.parse("socket = \"a\" b\n", path: "v.conf") }
        #expect(error?.kind == .syntax)
        #expect(error?.origin == .file(path: "v.conf", line: 1))
    }

    @Test("log levels map to syslog priorities as sd-daemon(3) prefixes")
    func priorities() {
        let expected: [(Logger.Level, Int)] = [
            (.trace, 7), (.debug, 7), (.info, 6), (.notice, 5), (.warning, 4), (.error, 3), (.critical, 2),
        ]
        for (level, priority) in expected {
            #expect(JournalLogHandler.priority(of: level) == priority)
        }
    }
}
