import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A finished child process: how it ended and what it printed.
public struct ChildProcess: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String

    /// Runs `executable arguments…` to completion, with `environment` merged over this process's environment and
    /// `input` on its standard input.
    ///
    /// - Throws: ``TestError`` when it cannot start, or runs past `timeout` seconds (it is then killed).
    public static func run(
        _ executable: String, _ arguments: [String], input: String = "", environment: [String: String] = [:],
        timeout: Double = 120
    ) throws -> ChildProcess {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe()
        let err = Pipe()
        let stdin = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = stdin
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try? stdin.fileHandleForWriting.close()
        return try collect(process, stdout: out, stderr: err, timeout: timeout)
    }

    /// Collects both pipes of a started `process` while it runs (so neither can fill up and stall it), and waits
    /// for it to end.
    ///
    /// - Throws: ``TestError`` when it runs past `timeout` seconds (it is then killed).
    public static func collect(_ process: Process, stdout: Pipe, stderr: Pipe, timeout: Double = 120) throws
        -> ChildProcess
    {
        try Collecting(process, stdout: stdout, stderr: stderr).finish(timeout: timeout)
    }

    /// A started process whose pipes are read as it runs, so that a test can look at what it has printed so far.
    final class Collecting: @unchecked Sendable {
        // @unchecked: the buffers lock; the process and pipes are used by the test that started it, from one task.
        let process: Process
        private let stdout: Pipe
        private let stderr: Pipe
        private let collectedOut = OutputBuffer()
        private let collectedErr = OutputBuffer()

        init(_ process: Process, stdout: Pipe, stderr: Pipe) {
            (self.process, self.stdout, self.stderr) = (process, stdout, stderr)
            let (o, e) = (collectedOut, collectedErr)
            stdout.fileHandleForReading.readabilityHandler = { h in o.append(h.availableData) }
            stderr.fileHandleForReading.readabilityHandler = { h in e.append(h.availableData) }
        }

        /// What it has printed on standard error so far.
        var stderrSoFar: String { collectedErr.text }

        /// Waits for the process to end (killing it past `timeout` seconds) and returns all it printed.
        func finish(timeout: Double) throws -> ChildProcess {
            defer {
                stdout.fileHandleForReading.readabilityHandler = nil
                stderr.fileHandleForReading.readabilityHandler = nil
            }
            let deadline = Deadline(seconds: timeout)
            while process.isRunning && !deadline.hasPassed { usleep(20_000) }
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                let name = process.executableURL?.lastPathComponent ?? "child"
                throw TestError("\(name) ran past \(timeout) s and was killed; it printed: \(collectedErr.text)")
            }
            process.waitUntilExit()
            stdout.fileHandleForReading.readabilityHandler = nil
            stderr.fileHandleForReading.readabilityHandler = nil
            collectedOut.append(stdout.fileHandleForReading.readDataToEndOfFile())
            collectedErr.append(stderr.fileHandleForReading.readDataToEndOfFile())
            return ChildProcess(
                status: process.terminationStatus, stdout: collectedOut.text, stderr: collectedErr.text)
        }
    }
}
