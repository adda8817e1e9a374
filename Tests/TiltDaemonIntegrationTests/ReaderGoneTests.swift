import Foundation
import Testing
import TiltTestKit

#if canImport(Glibc)
    import Glibc
#endif

/// Every streaming command ends when the reader of its standard output goes away (`tilt watch | head -2`), by
/// SIGPIPE as a shell pipeline expects, even in a process that ignores SIGPIPE because it uses swift-nio.
///
/// The pipe is real and its reader really closes it; the only bound is a guard against the hang this is about.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct ReaderGoneTests {
    private let tilt = TestPaths.executable("tilt")

    /// Runs `body` with a daemon replaying the bundled log in a loop and its socket.
    private func withLoopingDaemon(_ body: (_ dir: URL, _ socket: String) throws -> Void) throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let daemon = try DaemonProcess.replaying(["--loop"], in: dir)
        defer { daemon.stop() }
        _ = try daemon.greetedClient()
        try body(dir, DaemonProcess.temporarySocket(in: dir))
    }

    @Test("tilt watch --json | head -2: watch ends by SIGPIPE after its reader leaves")
    func watchJSON() throws {
        try withLoopingDaemon { _, socket in
            let r = try ClosingReader.run(tilt, ["watch", "--json", "--rate", "50", "--socket", socket], lines: 2)
            #expect(r.lines.allSatisfy { $0.hasPrefix("{") }, "\(r.lines)")
            #expect(r.endedBySIGPIPE, "ended by \(r.ending)")
        }
    }

    @Test("tilt watch (lines, not a terminal) | head -2 ends by SIGPIPE")
    func watchLines() throws {
        try withLoopingDaemon { _, socket in
            let r = try ClosingReader.run(tilt, ["watch", "--rate", "50", "--socket", socket], lines: 2)
            #expect(r.lines.allSatisfy { $0.hasPrefix("roll") }, "\(r.lines)")
            #expect(r.endedBySIGPIPE, "ended by \(r.ending)")
        }
    }

    @Test("tilt record --output /dev/stdout | head -2 ends by SIGPIPE, as the pipe is its log")
    func recordToAPipe() throws {
        try withLoopingDaemon { _, socket in
            let r = try ClosingReader.run(
                tilt, ["record", "--from", "daemon", "--socket", socket, "--output", "/dev/stdout"], lines: 2)
            #expect(r.lines.first?.hasPrefix("#") == true, "the log's metadata line first: \(r.lines)")
            #expect(r.endedBySIGPIPE, "ended by \(r.ending)")
        }
    }

    @Test("tilt replay --json | head -2 ends by SIGPIPE")
    func replay() throws {
        let r = try ClosingReader.run(
            tilt, ["replay", TestPaths.broadExcerpt, "--json", "--speed", "20", "--rate", "50"], lines: 2)
        #expect(r.endedBySIGPIPE, "ended by \(r.ending)")
    }

    @Test("tilt fuse --output - | head -2 ends by SIGPIPE")
    func fuseToStandardOutput() throws {
        let r = try ClosingReader.run(tilt, ["fuse", "--input", TestPaths.broadExcerpt, "--output", "-"], lines: 2)
        #expect(r.lines.first?.hasPrefix("t,qw") == true, "\(r.lines)")
        #expect(r.endedBySIGPIPE, "ended by \(r.ending)")
    }

    // MARK: Output paths: one check, in the words of what is wrong

    @Test("tilt record and tilt fuse --output x/: a folder's name, refused before any work, nothing written")
    func outputNamedAsAFolder() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.path + "/x/"
        let fuse = try ChildProcess.run(tilt, ["fuse", "--input", TestPaths.broadExcerpt, "--output", out])
        #expect(fuse.status != 0)
        #expect(fuse.stderr.contains("\(out) names a folder"), "\(fuse.stderr)")
        let record = try ChildProcess.run(
            tilt, ["record", "--from", "daemon", "--socket", dir.path + "/none.sock", "--output", out])
        #expect(record.status != 0)
        #expect(record.stderr.contains("\(out) names a folder"), "\(record.stderr)")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).isEmpty)
    }

    @Test("tilt fuse --output into a missing folder names that folder, not its parent")
    func outputIntoAMissingFolder() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.path + "/nope/fused.csv"
        let fuse = try ChildProcess.run(tilt, ["fuse", "--input", TestPaths.broadExcerpt, "--output", out])
        #expect(fuse.status != 0)
        #expect(
            fuse.stderr.contains("the folder \(dir.path)/nope does not exist; create it (mkdir -p \(dir.path)/nope)"),
            "\(fuse.stderr)")
    }

    @Test("a killed recording's .partial file is named by the next recording to the same file")
    func leftoverPartialIsNamed() throws {
        try withLoopingDaemon { dir, socket in
            let out = dir.path + "/rec.csv"
            let leftover = dir.path + "/.partial-AbC123-rec.csv"
            try "# a killed recording\n".write(toFile: leftover, atomically: false, encoding: .utf8)
            let r = try ChildProcess.run(
                tilt, ["record", "--from", "daemon", "--socket", socket, "--output", out, "--duration", "0.5"])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stderr.contains("a killed recording left \(leftover) beside \(out)"), "\(r.stderr)")
            #expect(FileManager.default.fileExists(atPath: leftover), "it is the user's to keep or remove")
            #expect(!r.stderr.contains("\r"), "standard error is not a terminal: progress in plain lines")
            #expect(r.stderr.contains(" s of sensor time\n"), "\(r.stderr)")
        }
    }
}
