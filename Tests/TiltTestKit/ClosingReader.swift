import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A command whose standard output is a pipe read by the test, which reads a few lines and then closes its end, as
/// `head -2` does: how the command then ended.
public struct ClosingReader: Sendable {
    /// The lines read before the pipe was closed.
    public var lines: [String]
    /// The command ended by SIGPIPE (status 141 in a shell).
    public var endedBySIGPIPE: Bool
    /// It ended by a signal (``status`` is the signal's number).
    public var bySignal: Bool
    /// The exit status when it exited, or the signal's number.
    public var status: Int32

    /// Whether it ended as a command whose reader went away should: by SIGPIPE, or exiting with status 0.
    public var endedQuietly: Bool { endedBySIGPIPE || (!bySignal && status == 0) }

    /// How it ended, for a failed expectation.
    public var ending: String { bySignal ? "signal \(status)" : "status \(status)" }

    /// Starts `executable arguments…` with its standard output into a pipe, reads `lines` lines (`lines: 0` reads
    /// nothing: the pipe is closed before the command writes), closes the pipe and waits for the command to end.
    ///
    /// - Throws: ``TestError`` when the command cannot start, ends before writing `lines` lines, or is still running
    ///   `timeout` seconds after the pipe closed (it is then killed): the hang this is here to catch.
    public static func run(
        _ executable: String, _ arguments: [String], lines wanted: Int, environment: [String: String] = [:],
        timeout: Double = 60
    ) throws -> ClosingReader {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw TestError("pipe: \(String(cString: strerror(errno)))") }
        let (readEnd, writeEnd) = (fds[0], fds[1])
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = FileHandle(fileDescriptor: writeEnd, closeOnDealloc: false)
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch {
            close(readEnd)
            close(writeEnd)
            throw error
        }
        // Only the child writes now: the pipe's reader sees its end when the child ends.
        close(writeEnd)
        if wanted == 0 { close(readEnd) }
        var lines: [String] = []
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while lines.count < wanted {
            let n = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            for byte in buffer[0..<n] {
                if byte == UInt8(ascii: "\n") {
                    lines.append(String(decoding: pending, as: UTF8.self))
                    pending.removeAll()
                } else {
                    pending.append(byte)
                }
            }
        }
        if wanted > 0 { close(readEnd) }
        let name = process.executableURL?.lastPathComponent ?? "child"
        if lines.count < wanted {
            process.waitUntilExit()
            throw TestError(
                "\(name) ended after \(lines.count) of \(wanted) lines (status \(process.terminationStatus))")
        }
        let deadline = Deadline(seconds: timeout)
        while process.isRunning && !deadline.hasPassed { usleep(20_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw TestError(
                "\(name) \(arguments.joined(separator: " ")) kept running \(timeout) s after its reader left")
        }
        process.waitUntilExit()
        let bySignal = process.terminationReason == .uncaughtSignal
        return ClosingReader(
            lines: lines, endedBySIGPIPE: bySignal && process.terminationStatus == SIGPIPE, bySignal: bySignal,
            status: process.terminationStatus)
    }
}
