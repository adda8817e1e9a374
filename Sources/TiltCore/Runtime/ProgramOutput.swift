import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// What a short-lived helper program printed: `gsettings get …` for the desktop's picture.
public struct ProgramOutput: Sendable, Hashable {
    /// Its exit status (128 + N when signal N ended it).
    public var status: Int32
    /// What it printed on standard output (at most 1 MiB is kept).
    public var stdout: String

    /// Runs `program arguments…` (looked for on `PATH` when it has no `/`), with standard input and error from and to
    /// `/dev/null`, and waits for it at most `timeout` seconds (then it is killed).
    /// - Returns: its status and output, or `nil` when it could not be started or did not finish in time.
    public static func run(_ program: String, _ arguments: [String], timeout: Double = 5) -> ProgramOutput? {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { return nil }
        // Neither end leaks into another child; dup2 gives the program its standard output without the flag.
        for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let words = ([program] + arguments).map { strdup($0) }
        defer { words.forEach { free($0) } }
        var argv = words + [nil]
        var pid: pid_t = 0
        let code = posix_spawnp(&pid, program, &actions, nil, &argv, environ)
        close(pipeEnds[1])
        defer { close(pipeEnds[0]) }
        guard code == 0 else { return nil }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = monotonicSeconds() + timeout
        var finished = false
        while true {
            let left = deadline - monotonicSeconds()
            guard left > 0 else { break }
            var fd = pollfd(fd: pipeEnds[0], events: Int16(POLLIN), revents: 0)
            let ready = poll(&fd, 1, Int32((left * 1000).rounded(.up)))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { break }
            let count = buffer.withUnsafeMutableBytes { read(pipeEnds[0], $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                finished = true
                break
            }
            if output.count < 1 << 20 { output += buffer[0..<count] }
        }
        if !finished { kill(pid, SIGKILL) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        guard finished else { return nil }
        let exit = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return ProgramOutput(status: exit, stdout: String(decoding: output, as: UTF8.self))
    }
}
