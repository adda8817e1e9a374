import Foundation
import Testing
import TiltCore
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

    @Test func aSourceThatCannotBeOpened() {
        let missing = TiltDaemon.Source.replay(.init(path: "/nonexistent/log.csv"))
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
