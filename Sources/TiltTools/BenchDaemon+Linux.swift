import Foundation
import TiltClient
import TiltCore
import TiltWire

#if canImport(Glibc)
    import Glibc
#endif

/// The tiltd that `tilt bench daemon` measures: started on a temporary socket, replaying a log in a loop.
///
/// It inherits the bench's limit on open files, which the bench raises to its hard limit first, so that a thousand
/// clients do not hit the usual soft limit of 1024 whether or not tiltd raises its own. (`prlimit` cannot go past
/// the hard limit without privileges, so it would add nothing.) Its log goes to a file in the temporary folder,
/// which is removed when the daemon is stopped.
final class BenchDaemon {
    let process = Process()
    let folder: String
    let socketPath: String
    let logPath: String

    var pid: Int32 { process.processIdentifier }

    /// Starts `tiltd --replay log --loop` and waits (10 s at most) until its socket answers.
    ///
    /// - Throws: ``BenchError`` when it cannot start or does not answer.
    init(tiltd: String, log: String) throws {
        var template = Array("/tmp/tilt-bench-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw BenchError(.system, "cannot create a temporary folder in /tmp: \(String(cString: strerror(errno)))")
        }
        folder = String(cString: made)
        socketPath = folder + "/tiltd.sock"
        logPath = folder + "/tiltd.log"
        process.executableURL = URL(fileURLWithPath: tiltd)
        process.arguments = ["--replay", log, "--loop", "--socket", socketPath]
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = monotonicSeconds() + 10
        while (try? Self.status(socketPath: socketPath)) == nil {
            guard process.isRunning, monotonicSeconds() < deadline else {
                let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
                stop()
                throw BenchError(.daemon, "tiltd did not start on \(socketPath); it printed:\n\(text)")
            }
            usleep(50_000)
        }
    }

    private static let statusCommand = ClientCommand.status.lineBytes

    /// One `status` request on a fresh connection: its answer.
    static func status(socketPath: String) throws -> StatusReport {
        let fd = try DaemonSocket.connect(path: socketPath)
        defer { close(fd) }
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard WatcherPool.sendAllBytes(fd, Self.statusCommand) else {
            throw BenchError(.daemon, "tiltd closed the connection")
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { throw BenchError(.daemon, "tiltd did not answer status") }
            received += buffer[..<n]
            for line in received.split(separator: UInt8(ascii: "\n")) {
                if case .status(let report) = try? ServerMessage.decode(line) { return report }
            }
        }
    }

    /// Stops the daemon (SIGTERM, then SIGKILL after 5 s) and removes the temporary folder.
    func stop() {
        if process.isRunning {
            kill(pid, SIGTERM)
            let deadline = monotonicSeconds() + 5
            while process.isRunning && monotonicSeconds() < deadline { usleep(20_000) }
            if process.isRunning { kill(pid, SIGKILL) }
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: folder)
    }
}
