import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A long-running child process started by a test (e.g. `tilt watch`), with its output collected as it runs.
///
/// The process is killed when the object goes away, so a failing test leaves nothing behind.
public final class BackgroundProcess {
    public let process = Process()
    private let out = Pipe()
    private let err = Pipe()
    private let collectedOut = OutputBuffer()
    private let collectedErr = OutputBuffer()
    private let input: Pipe?

    /// Starts `executable arguments…`, with `environment` merged over this process's environment (an empty value
    /// stands for unset, to the programs that read it so).
    /// - Parameter standardInput: whether its standard input is a pipe the test writes (``send(_:)``) and closes
    ///   (``closeInput()``); otherwise it reads `/dev/null`.
    /// - Parameter unblockingSignals: whether it starts with no signal blocked, as from a shell. A child inherits the
    ///   signal mask of the thread that starts it, and the test runner's threads block almost every signal: without
    ///   this, a program that does not unblock its own (a shell script's `sleep`, gnome-shell) never sees a SIGTERM.
    ///   tilt's programs unblock their stop signals themselves.
    /// - Throws: ``TestError`` when the executable is not built, or the error of `Process.run()`.
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], standardInput: Bool = false,
        unblockingSignals: Bool = false
    ) throws {
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw TestError("\(executable) is not built; run `swift build` first (scripts/test does)")
        }
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardOutput = out
        process.standardError = err
        input = standardInput ? Pipe() : nil
        process.standardInput = input ?? FileHandle.nullDevice
        let (o, e) = (collectedOut, collectedErr)
        out.fileHandleForReading.readabilityHandler = { h in o.append(h.availableData) }
        err.fileHandleForReading.readabilityHandler = { h in e.append(h.availableData) }
        if unblockingSignals {
            try withNoSignalsBlocked { try process.run() }
        } else {
            try process.run()
        }
    }

    /// Writes `text` to its standard input (started with `standardInput: true`).
    public func send(_ text: String) throws {
        guard let input else { throw TestError("send(_:) needs a process started with standardInput: true") }
        try input.fileHandleForWriting.write(contentsOf: Data(text.utf8))
    }

    /// Closes its standard input: it reads the end of the file.
    public func closeInput() throws {
        try input?.fileHandleForWriting.close()
    }

    /// The process id.
    public var pid: Int32 { process.processIdentifier }

    /// Everything it printed on standard output so far.
    public var stdout: String { collectedOut.text }

    /// Everything it printed on standard error so far.
    public var stderr: String { collectedErr.text }

    /// The complete lines it printed on standard output so far.
    public var stdoutLines: [String] {
        let text = stdout
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines.removeLast()  // the unfinished tail (empty after a final newline)
        return lines
    }

    /// Sends `signal` (default SIGKILL) and waits up to `timeout` seconds for the process to end.
    @discardableResult
    public func kill(_ signal: Int32 = SIGKILL, timeout: Double = 10) -> Bool {
        if process.isRunning { Glibc.kill(pid, signal) }
        return eventually(timeout: timeout, every: 0.01) { !process.isRunning }
    }

    deinit {
        if process.isRunning {
            Glibc.kill(pid, SIGKILL)
            process.waitUntilExit()
        }
        out.fileHandleForReading.readabilityHandler = nil
        err.fileHandleForReading.readabilityHandler = nil
    }
}

/// Runs `body` with no signal blocked on this thread (restoring the mask after), so that a process it spawns starts
/// with none blocked: `Process.run()` spawns from the calling thread, whose mask the child inherits.
func withNoSignalsBlocked<T>(_ body: () throws -> T) rethrows -> T {
    var none = sigset_t()
    var old = sigset_t()
    sigemptyset(&none)
    pthread_sigmask(SIG_SETMASK, &none, &old)
    defer { pthread_sigmask(SIG_SETMASK, &old, nil) }
    return try body()
}
