import Foundation
import Testing
import TiltCore
import TiltDSU
import TiltSensors
import TiltTestKit

@testable import TiltDaemon

/// What the daemon refuses to start with, by kind (the words are checked where tiltd itself is run).
@Suite
struct DaemonErrorKindTests {
    private func kind(_ body: () throws -> Void) -> DaemonError.Kind? {
        do {
            try body()
            return nil
        } catch let error as DaemonError {
            return error.kind
        } catch {
            Issue.record("not a DaemonError: \(error)")
            return nil
        }
    }

    @Test func settingsThatExcludeEachOtherOrLackAPart() {
        var loopOnly = DaemonOptions()
        loopOnly.loop = true
        #expect(kind { _ = try loopOnly.makeConfiguration() } == .settings)
        var both = DaemonOptions()
        both.calibration = "/etc/x.calib"
        both.noCalibration = true
        #expect(kind { _ = try both.makeConfiguration() } == .settings)
    }

    @Test("dsu reads a DSU server and excludes replay and uri; dsu_server goes with any source")
    func dsuSettings() throws {
        var dsu = DaemonOptions()
        dsu.dsu = DSUEndpoint(host: "127.0.0.1", slot: 1)
        dsu.dsuServer = DSUEndpoint(host: "127.0.0.1", port: 0)
        let configuration = try dsu.makeConfiguration()
        #expect(
            configuration.source
                == .init(DSUMotionSource.Configuration(endpoint: DSUEndpoint(host: "127.0.0.1", slot: 1))))
        #expect(configuration.dsuServer == DSUEndpoint(host: "127.0.0.1", port: 0))
        var withReplay = dsu
        withReplay.replay = "/x.csv"
        #expect(kind { _ = try withReplay.makeConfiguration() } == .settings)
        var withURI = dsu
        withURI.uri = "local:"
        #expect(kind { _ = try withURI.makeConfiguration() } == .settings)
        var withEvdev = dsu
        withEvdev.evdev = "auto"
        #expect(kind { _ = try withEvdev.makeConfiguration() } == .settings)
        var evdevAndURI = DaemonOptions()
        evdevAndURI.evdev = "auto"
        evdevAndURI.uri = "ip:10.0.0.2"
        #expect(kind { _ = try evdevAndURI.makeConfiguration() } == .settings)
        let unresolvable = TiltDaemon.Source(
            DSUMotionSource.Configuration(endpoint: DSUEndpoint(host: "no-such-host.invalid")))
        #expect(kind { _ = try unresolvable.open() } == .source)
    }

    @Test func aSourceThatCannotBeOpened() {
        let missing = TiltDaemon.Source(LogReplaySource.Configuration(path: "/nonexistent/log.csv"))
        #expect(kind { _ = try missing.open() } == .source)
    }

    @Test func socketPathsThatCannotBeServed() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let long = dir.path + "/" + String(repeating: "s", count: 120) + ".sock"
        #expect(kind { try SocketFile.prepare(long) } == .socketPath)
        #expect(kind { try SocketFile.prepare(dir.path + "/missing/d.sock") } == .socketPath)
        let file = dir.appendingPathComponent("plain").path
        _ = FileManager.default.createFile(atPath: file, contents: Data("x".utf8))
        #expect(kind { try SocketFile.prepare(file) } == .socketPath)
        #expect(FileManager.default.fileExists(atPath: file), "a file that is not a socket is never removed")
    }

    @Test func aSocketAnotherDaemonServes() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let daemon = try DaemonProcess.replaying(["--loop"], in: dir)
        defer { daemon.stop() }
        _ = try daemon.connect()
        #expect(kind { try SocketFile.prepare(daemon.socketPath ?? "") } == .socketInUse)
    }

    @Test func aGroupThatDoesNotExist() {
        #expect(kind { _ = try UnixGroup.lookup("no-such-group-tilt", key: "socket_group") } == .unknownGroup)
    }
}
