import Foundation
import Testing
import TiltTestKit

/// A file of the wrong kind, a folder or an unusable socket path is named in the error, with what it is and what to
/// do, never by quoting its bytes or a system call's name.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct NamedFileErrorTests {
    private func run(_ name: String, _ arguments: [String]) throws -> ChildProcess {
        try ChildProcess.run(TestPaths.executable(name), arguments, timeout: 30)
    }

    /// A JPEG's start and bytes that are not text: what `tilt replay big.jpg` used to quote.
    private func jpeg(in dir: URL) -> String {
        let path = dir.appendingPathComponent("big.jpg").path
        var bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0]
        for i in 0..<4000 { bytes.append(UInt8(truncatingIfNeeded: i &* 2_654_435_761 >> 13)) }
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }

    @Test("tilt replay big.jpg and tiltd --replay ball.webm name the file and its type, quoting no bytes")
    func wrongKindOfFile() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let picture = jpeg(in: dir)
        let replay = try run("tilt", ["replay", picture])
        #expect(replay.status == 1)
        #expect(
            replay.stderr.contains("error: \(picture): this is a JPEG picture, not a sensor log"), "\(replay.stderr)")
        #expect(!replay.stderr.contains("\u{FFFD}") && !replay.stderr.contains("column: '"), "\(replay.stderr)")
        let video = TestPaths.fixture("ball-64x48.webm")
        let daemon = try run("tiltd", ["--replay", video, "--socket", dir.appendingPathComponent("d.sock").path])
        #expect(daemon.status != 0)
        #expect(
            daemon.stderr.contains("\(video): this is a WebM or Matroska video, not a sensor log"), "\(daemon.stderr)")
        #expect(!daemon.stderr.contains("webm B"), "no bytes of the file: \(daemon.stderr)")
    }

    @Test("--replay DIR and tilt replay DIR say it is a folder, not that it is damaged or not gzip")
    func folderAsALog() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let replay = try run("tilt", ["replay", dir.path])
        #expect(replay.status == 1)
        #expect(replay.stderr.contains("\(dir.path): this is a folder, not a sensor log"), "\(replay.stderr)")
        let daemon = try run("tiltd", ["--replay", dir.path, "--socket", dir.appendingPathComponent("d.sock").path])
        #expect(daemon.status != 0)
        #expect(daemon.stderr.contains("this is a folder, not a sensor log"), "\(daemon.stderr)")
        #expect(!daemon.stderr.contains("not gzip"), "\(daemon.stderr)")
    }

    @Test(
        "tiltd --socket /proc/x.sock says the folder takes no files, not NIO's bind(descriptor:ptr:bytes:)",
        .enabled(if: FileManager.default.fileExists(atPath: "/proc/self"), "needs Linux's /proc"))
    func socketInASystemFolder() throws {
        let daemon = try run("tiltd", ["--socket", "/proc/x.sock", "--replay", TestPaths.fixture("turn-left-up.csv")])
        #expect(daemon.status != 0)
        #expect(
            daemon.stderr.contains("cannot listen on /proc/x.sock: the folder /proc takes no new files"),
            "\(daemon.stderr)")
        #expect(!daemon.stderr.contains("bind("), "\(daemon.stderr)")
    }

    @Test("tiltd --socket in a missing folder names the folder to create")
    func socketInAMissingFolder() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("nope/d.sock").path
        let daemon = try run("tiltd", ["--socket", socket, "--replay", TestPaths.fixture("turn-left-up.csv")])
        #expect(daemon.status != 0)
        #expect(
            daemon.stderr.contains("the folder \(dir.path)/nope does not exist; create it (mkdir -p \(dir.path)/nope)"),
            "\(daemon.stderr)")
    }
}
