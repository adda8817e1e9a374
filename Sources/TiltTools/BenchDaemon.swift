import FoundationEssentials
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
    let folder: String
    let socketPath: String
    let logPath: String
    /// The daemon's process id (started with posix_spawn: Foundation's Process is not in FoundationEssentials).
    private(set) var pid: pid_t = 0
    private var reaped = false

    /// Starts `tiltd --replay log --loop extra…` and waits (10 s at most) until its socket answers.
    ///
    /// - Throws: ``BenchError`` when it cannot start or does not answer.
    init(tiltd: String, log: String, extra: [String] = []) throws {
        var template = Array("/tmp/tilt-bench-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw BenchError(.system, "cannot create a temporary folder in /tmp: \(String(cString: strerror(errno)))")
        }
        folder = String(cString: made)
        socketPath = folder + "/tiltd.sock"
        logPath = folder + "/tiltd.log"
        // Standard input from /dev/null, standard output and error to the log.
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, logPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let words: [String] = [tiltd, "--replay", log, "--loop", "--socket", socketPath] + extra
        let arguments = words.map { strdup($0) }
        defer { arguments.forEach { free($0) } }
        var argv = arguments + [nil]
        let code = posix_spawn(&pid, tiltd, &actions, nil, &argv, environ)
        guard code == 0 else {
            try? FileManager.default.removeItem(atPath: folder)
            throw BenchError(.system, "cannot start \(tiltd): \(String(cString: strerror(code)))")
        }
        let deadline = monotonicSeconds() + 10
        while (try? Self.status(socketPath: socketPath)) == nil {
            guard isRunning, monotonicSeconds() < deadline else {
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

    /// Whether the daemon still runs (an exited one is reaped here).
    private var isRunning: Bool {
        guard !reaped else { return false }
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        if result == 0 { return true }
        reaped = true
        return false
    }

    /// Stops the daemon (SIGTERM, then SIGKILL after 5 s) and removes the temporary folder.
    func stop() {
        if isRunning {
            kill(pid, SIGTERM)
            let deadline = monotonicSeconds() + 5
            while isRunning && monotonicSeconds() < deadline { usleep(20_000) }
            if isRunning { kill(pid, SIGKILL) }
            var status: Int32 = 0
            if !reaped { _ = waitpid(pid, &status, 0) }
            reaped = true
        }
        try? FileManager.default.removeItem(atPath: folder)
    }
}
