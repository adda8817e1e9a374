import Foundation
import Testing
import TiltTestKit

#if canImport(Glibc)
    import Glibc
#endif

/// What scripts rely on, command by command: errors on standard error with a non-zero status (never inside the data
/// on standard output), streamed lines that reach a pipe or file at once and survive Ctrl-C, and outputs that never
/// silently replace a file or the input.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct CLIOutputTests {
    private func run(_ name: String, _ arguments: [String], timeout: Double = 60) throws -> ChildProcess {
        try ChildProcess.run(TestPaths.executable(name), arguments, timeout: timeout)
    }

    /// Runs `body` with a daemon replaying the bundled log in a loop, greeted once, in a temporary folder it
    /// removes afterwards; `body` gets the folder and the daemon's socket.
    private func withLoopingDaemon(_ body: (_ dir: URL, _ socket: String) throws -> Void) throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let daemon = try DaemonProcess.replaying(["--loop"], in: dir)
        defer { daemon.stop() }
        _ = try daemon.greetedClient()
        try body(dir, DaemonProcess.temporarySocket(in: dir))
    }

    /// The row count of `tilt record`'s last progress line ("recording FILE: N samples, S s"), 0 before one.
    private func recordedRows(_ stderr: String) -> Int {
        let line = stderr.split(whereSeparator: { $0 == "\r" || $0 == "\n" }).last { $0.contains(" samples,") }
        guard let line, let head = line.components(separatedBy: " samples,").first else { return 0 }
        return head.split(separator: " ").last.flatMap { Int($0) } ?? 0
    }

    private func contents(_ path: String) -> String? {
        try? String(contentsOfFile: path, encoding: .utf8)
    }

    private func files(_ dir: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).sorted()
    }

    /// Starts `tilt arguments…` with standard output into `file` (a regular file, as `> file` makes it).
    private func tiltWritingStdout(to file: String, _ arguments: [String]) throws -> Process {
        _ = FileManager.default.createFile(atPath: file, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestPaths.executable("tilt"))
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return process
    }

    // MARK: Errors: standard error and a non-zero status

    @Test("tilt fuse --output - with a missing input: nothing on stdout, the error on stderr, status ≠ 0")
    func fuseErrorStaysOutOfTheCSV() throws {
        let result = try run("tilt", ["fuse", "--input", "/nonexistent/log.csv", "--output", "-"])
        #expect(result.status != 0)
        #expect(result.stdout.isEmpty, "stdout is the CSV stream: \(result.stdout)")
        #expect(result.stderr.contains("/nonexistent/log.csv"), "\(result.stderr)")
    }

    @Test("tilt fuse --output -: the CSV alone on stdout")
    func fuseToStandardOutput() throws {
        let result = try run("tilt", ["fuse", "--input", TestPaths.broadExcerpt, "--output", "-"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("t,qw,qx,qy,qz,") == true)
        #expect(lines.dropFirst().allSatisfy { $0.split(separator: ",").count == 22 })
    }

    @Test(
        "tilt fuse --output - into a full disk: an error with the system's reason",
        .enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "needs /dev/full"))
    func fuseToAFullStandardOutput() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestPaths.executable("tilt"))
        process.arguments = ["fuse", "--input", TestPaths.broadExcerpt, "--output", "-"]
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
        let err = Pipe()
        process.standardError = err
        try process.run()
        process.waitUntilExit()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus != 0)
        #expect(
            stderr.contains("cannot write standard output: the disk is full (No space left on device)"), "\(stderr)")
    }

    @Test("tilt fuse to a file with a missing input: status ≠ 0, the error on stderr, no output file")
    func fuseErrorToAFile() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("x.csv").path
        let result = try run("tilt", ["fuse", "--input", "/nonexistent/log.csv", "--output", out])
        #expect(result.status != 0)
        #expect(result.stdout.isEmpty, "\(result.stdout)")
        #expect(result.stderr.contains("/nonexistent/log.csv"), "\(result.stderr)")
        #expect(files(dir).isEmpty, "no output and no temporary file: \(files(dir))")
    }

    @Test("tiltfx: an unknown preset is an error on stderr with status ≠ 0")
    func tiltfxErrorOnStderr() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try run(
            "tiltfx", ["render", "--presets", dir.path, "--preset", "no-such-preset", "--out", dir.path + "/a.png"])
        #expect(result.status != 0)
        #expect(result.stdout.isEmpty, "\(result.stdout)")
        #expect(result.stderr.contains("no-such-preset"), "\(result.stderr)")
    }

    @Test("tiltd: a missing config file is an error on stderr with status ≠ 0")
    func tiltdErrorOnStderr() throws {
        let result = try run("tiltd", ["--config", "/nonexistent/tiltd.conf", "--replay", TestPaths.broadExcerpt])
        #expect(result.status != 0)
        #expect(result.stdout.isEmpty, "\(result.stdout)")
        #expect(result.stderr.contains("/nonexistent/tiltd.conf"), "\(result.stderr)")
    }

    // MARK: Streaming: each line at once, nothing lost to a signal

    @Test("tilt watch --json into a pipe: the first line arrives at once; after SIGINT every line is whole")
    func watchStreamsIntoAPipe() throws {
        try withLoopingDaemon { dir, socket in
            let watch = try BackgroundProcess(
                TestPaths.executable("tilt"), ["watch", "--json", "--rate", "2", "--socket", socket])
            try #require(eventually(timeout: 10) { watch.stderr.contains("connected to") }, "\(watch.stderr)")
            // At 2 frames per second a 4 KiB block buffer held the first line for seconds.
            #expect(eventually(timeout: 1.5) { !watch.stdoutLines.isEmpty }, "no line within 1.5 s of connecting")
            try #require(eventually(timeout: 5) { watch.stdoutLines.count >= 3 })
            let seen = watch.stdoutLines.count
            #expect(watch.kill(SIGINT))
            let lines = watch.stdoutLines
            #expect(lines.count >= seen)
            #expect(watch.stdout.hasSuffix("\n"), "no cut line")
            #expect(lines.allSatisfy { LineSocket.parse($0)?["class"] as? String == "attitude" })
        }
    }

    @Test("tilt watch into a file (human lines): lines land at once, and SIGINT loses none of them")
    func watchStreamsIntoAFile() throws {
        try withLoopingDaemon { dir, socket in
            let file = dir.appendingPathComponent("watch.txt").path
            let watch = try tiltWritingStdout(to: file, ["watch", "--rate", "5", "--socket", socket])
            defer { if watch.isRunning { kill(watch.processIdentifier, SIGKILL) } }
            let lineCount = { (self.contents(file) ?? "").split(separator: "\n").count }
            #expect(eventually(timeout: 3) { lineCount() >= 2 }, "human lines reach the file as they are printed")
            let seen = lineCount()
            kill(watch.processIdentifier, SIGINT)
            watch.waitUntilExit()
            let text = contents(file) ?? ""
            #expect(text.split(separator: "\n").count >= max(seen, 2))
            #expect(text.hasSuffix("\n"))
            #expect(text.split(separator: "\n").allSatisfy { $0.hasPrefix("roll ") })
        }
    }

    @Test("tilt replay into a pipe: the first frame arrives at the log's pace, not when a buffer fills")
    func replayStreamsIntoAPipe() throws {
        let replay = try BackgroundProcess(
            TestPaths.executable("tilt"), ["replay", TestPaths.broadExcerpt, "--rate", "2", "--json"])
        #expect(eventually(timeout: 2) { !replay.stdoutLines.isEmpty }, "\(replay.stderr)")
        replay.kill(SIGINT)
    }

    // MARK: Outputs: fail early, never replace unasked, never the input

    @Test("tilt record into a missing folder fails at once with the cause, before waiting for samples")
    func recordMissingFolderFailsAtOnce() throws {
        try withLoopingDaemon { dir, socket in
            let out = dir.appendingPathComponent("missing/r.csv").path
            let started = Date()
            let result = try run(
                "tilt", ["record", "--from", "daemon", "--socket", socket, "--output", out, "--duration", "5"],
                timeout: 20)
            #expect(Date().timeIntervalSince(started) < 3, "it stopped at once, not after --duration")
            #expect(result.status != 0)
            #expect(
                result.stderr.contains("cannot create \(out): the folder \(dir.path)/missing does not exist"),
                "\(result.stderr)")
            #expect(!result.stderr.contains("no samples arrived"), "\(result.stderr)")
        }
    }

    @Test("tilt record --from daemon with no daemon stops after its start grace naming the socket, and writes nothing")
    func recordWithoutDaemonFailsAtOnce() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("none.sock").path
        let out = dir.appendingPathComponent("r.csv").path
        let started = Date()
        let result = try run(
            "tilt", ["record", "--from", "daemon", "--socket", socket, "--output", out, "--duration", "10"],
            timeout: 20)
        #expect(Date().timeIntervalSince(started) < 6, "it stopped after the 2 s start grace, not after --duration")
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("cannot record through tiltd: cannot connect to tiltd at \(socket)"),
            "\(result.stderr)")
        #expect(!result.stderr.contains("retrying"), "\(result.stderr)")
        #expect(!result.stderr.contains("recorded 0 samples"), "\(result.stderr)")
        #expect(files(dir).isEmpty, "no output and no temporary file: \(files(dir))")
    }

    @Test("tilt record and fuse refuse an existing output without --force, and leave it as it was")
    func existingOutputNeedsForce() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let existing = dir.appendingPathComponent("rec.csv.gz").path
        try "precious".write(toFile: existing, atomically: false, encoding: .utf8)
        let record = try run(
            "tilt", ["record", "--socket", dir.path + "/none.sock", "--output", existing, "--duration", "1"])
        #expect(record.status != 0)
        #expect(
            record.stderr.contains("\(existing) already exists; pass --force to replace it"), "\(record.stderr)")
        let fuse = try run("tilt", ["fuse", "--input", TestPaths.broadExcerpt, "--output", existing])
        #expect(fuse.status != 0)
        #expect(fuse.stderr.contains("\(existing) already exists; pass --force to replace it"), "\(fuse.stderr)")
        #expect(contents(existing) == "precious")
        #expect(files(dir) == ["rec.csv.gz"], "no temporary file is left: \(files(dir))")

        let forced = try run("tilt", ["fuse", "--input", TestPaths.broadExcerpt, "--output", existing, "--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(contents(existing)?.hasPrefix("t,qw,qx,qy,qz,") == true)
        #expect(files(dir) == ["rec.csv.gz"])
    }

    @Test("tilt fuse never writes over its input, even with --force or through a link")
    func fuseNeverReplacesItsInput() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("a.csv.gz").path
        try FileManager.default.copyItem(atPath: TestPaths.broadExcerpt, toPath: input)
        let before = try Data(contentsOf: URL(fileURLWithPath: input))
        symlink(input, dir.appendingPathComponent("link.csv").path)
        for output in [input, dir.path + "/./a.csv.gz", dir.appendingPathComponent("link.csv").path] {
            let result = try run("tilt", ["fuse", "--input", input, "--output", output, "--force"])
            #expect(result.status != 0)
            #expect(result.stderr.contains("is the input \(input)"), "\(result.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == before)
        #expect(files(dir) == ["a.csv.gz", "link.csv"])
    }

    @Test("Ctrl-C during tilt fuse --force keeps the old output whole and leaves no temporary file")
    func interruptedFuseKeepsTheOldOutput() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A long log (200 000 rows at 100 Hz, turning slowly), so that the signal comes while it is read or fused.
        var text = "t,gyr_x,gyr_y,gyr_z,acc_x,acc_y,acc_z\n"
        text.reserveCapacity(200_000 * 32)
        for i in 0..<200_000 { text += "\(Double(i) / 100),0,0,0.1,0,0,9.81\n" }
        let input = dir.appendingPathComponent("long.csv").path
        try text.write(toFile: input, atomically: false, encoding: .utf8)
        let out = dir.appendingPathComponent("fused.csv").path
        try "the previous fused output\n".write(toFile: out, atomically: false, encoding: .utf8)
        let fuse = try BackgroundProcess(
            TestPaths.executable("tilt"), ["fuse", "--input", input, "--output", out, "--force"])
        // Into fusing: its partial output has rows (the 200 000 take it seconds more).
        func partialSize() -> Int {
            guard let partial = files(dir).first(where: { $0.hasPrefix(".partial-") }) else { return 0 }
            let attributes = try? FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent(partial).path)
            return (attributes?[.size] as? Int) ?? 0
        }
        try #require(eventually(timeout: 30) { partialSize() > 0 }, "it never wrote: \(fuse.stderr)")
        #expect(fuse.kill(SIGINT))
        try #require(fuse.process.terminationReason == .uncaughtSignal, "it was still fusing: \(fuse.stderr)")
        #expect(contents(out) == "the previous fused output\n")
        #expect(files(dir) == ["fused.csv", "long.csv"], "no temporary file is left: \(files(dir))")
    }

    @Test("tilt record --force replaces a recording; SIGTERM ends it like Ctrl-C, with a complete log")
    func recordForceAndSigterm() throws {
        try withLoopingDaemon { dir, socket in
            let out = dir.appendingPathComponent("rec.csv").path
            try "old recording\n".write(toFile: out, atomically: false, encoding: .utf8)
            let record = try BackgroundProcess(
                TestPaths.executable("tilt"),
                ["record", "--from", "daemon", "--socket", socket, "--output", out, "--force"])
            // Its progress line counts the rows written; wait for 20, so that "more than 10 lines" holds however
            // slowly a loaded machine hands the first samples over.
            try #require(eventually(timeout: 10) { recordedRows(record.stderr) >= 20 }, "\(record.stderr)")
            #expect(contents(out) == "old recording\n", "the old file stays until the recording ends")
            #expect(record.kill(SIGTERM))
            #expect(record.process.terminationStatus == 0, "\(record.stderr)")
            let lines = (contents(out) ?? "").split(separator: "\n")
            #expect(lines.first?.hasPrefix("# sampling_rate_hz=") == true)
            #expect(lines.count > 10, "\(lines.count) lines")
            #expect(files(dir).filter { $0.hasPrefix(".partial-") }.isEmpty, "\(files(dir))")
        }
    }
}
