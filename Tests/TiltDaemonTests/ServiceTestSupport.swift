import Foundation
import TiltTestKit

#if canImport(Glibc)
    import Glibc
#endif

/// A process started by a service test (tiltd, or a launcher that execs it), its output collected.
final class ServiceProcess {
    let process = Process()
    private let output = Pipe()
    private let collected = CollectedText()

    /// Starts `executable arguments…` with `environment` over this process's environment.
    init(executable: String, arguments: [String], environment: [String: String] = [:]) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = output
        process.standardError = output
        let collected = self.collected
        output.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if !data.isEmpty { collected.append(data) }
        }
        try process.run()
    }

    /// Starts the built `tiltd` with `arguments`.
    static func tiltd(_ arguments: [String], environment: [String: String] = [:]) throws -> ServiceProcess {
        let path = TestPaths.executable("tiltd")
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw TestError("tiltd is not built at \(path); run `swift build` first")
        }
        return try ServiceProcess(executable: path, arguments: arguments, environment: environment)
    }

    /// Everything printed so far.
    var log: String { collected.text }

    var pid: Int32 { process.processIdentifier }

    /// Sends `signal`.
    func send(_ signal: Int32) {
        if process.isRunning { kill(process.processIdentifier, signal) }
    }

    /// Sends `signal` and waits for the exit; returns the status, or `nil` if it still runs after `timeout` s.
    @discardableResult
    func stop(signal: Int32 = SIGTERM, timeout: Double = 10) -> Int32? {
        send(signal)
        return waitForExit(timeout: timeout)
    }

    /// Waits up to `timeout` seconds for the exit; returns the status, or `nil`.
    func waitForExit(timeout: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        guard !process.isRunning else { return nil }
        return process.terminationStatus
    }

    /// Waits up to `timeout` seconds until the output holds `text` `count` times.
    func waitForLog(_ text: String, count: Int = 1, timeout: Double = 10) -> Bool {
        waitFor(timeout: timeout) { self.log.components(separatedBy: text).count - 1 >= count }
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        output.fileHandleForReading.readabilityHandler = nil
    }
}

/// Text appended from a pipe's handler thread.
final class CollectedText: @unchecked Sendable {
    // @unchecked: every access to `data` holds `lock`.
    private let lock = NSLock()
    private var data = Data()

    func append(_ more: Data) {
        lock.lock()
        data.append(more)
        lock.unlock()
    }

    var text: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: data, as: UTF8.self)
    }
}

/// Polls `condition` every 20 ms until it holds or `timeout` seconds pass; returns whether it held.
func waitFor(timeout: Double, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if try condition() { return true }
        usleep(20_000)
    }
    return try condition()
}

/// Fixtures shared by the service tests.
enum ServiceFixtures {
    /// A fresh folder others may traverse (0711), so a client running as another uid reaches a socket in it.
    static func directory(_ prefix: String) -> URL {
        let dir = TestPaths.temporaryDirectory(prefix)
        chmod(dir.path, 0o711)
        return dir
    }

    /// Writes `text` to `name` in `dir`; returns the path.
    static func write(_ text: String, to name: String, in dir: URL) throws -> String {
        let path = dir.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A python3 client: connects to argv[1], skips the hello, sends argv[2], prints the first reply that is a
    /// `tare`, `status` or `error` object (or `EOF`).
    static let pythonClient = """
        import json, socket, sys
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(10)
        s.connect(sys.argv[1])
        f = s.makefile("rwb")
        f.readline()
        f.write((sys.argv[2] + "\\n").encode())
        f.flush()
        while True:
            line = f.readline()
            if not line:
                print("EOF")
                break
            if json.loads(line).get("class") in ("tare", "status", "error"):
                print(line.decode().strip())
                break
        """

    /// A python3 launcher: `launch.py [--activate SOCKET] [--journal] -- PROGRAM ARGS…`. With `--activate` it binds
    /// and listens on SOCKET, moves it to fd 3 and sets `LISTEN_FDS=1`, `LISTEN_PID` to its own pid (kept across
    /// exec); with `--journal` it sets `JOURNAL_STREAM` to its standard error's device and inode. Then it execs.
    static let pythonLauncher = """
        import os, socket, sys
        args = sys.argv[1:]
        split = args.index("--")
        options, program = args[:split], args[split + 1:]
        if "--activate" in options:
            path = options[options.index("--activate") + 1]
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.bind(path)
            s.listen(64)
            os.dup2(s.fileno(), 3)
            os.set_inheritable(3, True)
            os.environ["LISTEN_FDS"] = "1"
            os.environ["LISTEN_PID"] = str(os.getpid())
        if "--journal" in options:
            st = os.fstat(2)
            os.environ["JOURNAL_STREAM"] = "%d:%d" % (st.st_dev, st.st_ino)
        os.execv(program[0], program)
        """
}
