import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A real `tiltd` process (or a launcher that execs it) started by a test, with its output captured.
public final class DaemonProcess {
    public let process = Process()
    /// The socket passed with `--socket` by ``init(socketPath:arguments:)``.
    public let socketPath: String?
    private let output = Pipe()
    private let collected = OutputBuffer()

    /// Starts the built `tiltd` with `arguments` plus `--socket socketPath`.
    public convenience init(socketPath: String, arguments: [String]) throws {
        try self.init(
            executable: TestPaths.executable("tiltd"), arguments: arguments + ["--socket", socketPath],
            socketPath: socketPath)
    }

    /// Starts the built `tiltd` with exactly `arguments`, and `environment` over this process's environment.
    public static func tiltd(_ arguments: [String], environment: [String: String] = [:]) throws -> DaemonProcess {
        try DaemonProcess(executable: TestPaths.executable("tiltd"), arguments: arguments, environment: environment)
    }

    /// Starts `executable arguments…` with `environment` over this process's environment.
    ///
    /// - Throws: ``TestError`` when the executable is not built, or the error of `Process.run()`.
    public init(
        executable: String, arguments: [String], environment: [String: String] = [:], socketPath: String? = nil
    ) throws {
        self.socketPath = socketPath
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardOutput = output
        process.standardError = output
        let collected = self.collected
        output.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if !data.isEmpty { collected.append(data) }
        }
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw TestError("\(executable) is not built; run `swift build` first (scripts/test does)")
        }
        try process.run()
    }

    /// The process id.
    public var pid: Int32 { process.processIdentifier }

    /// Sends `signal` if the process still runs.
    public func send(_ signal: Int32) {
        if process.isRunning { kill(process.processIdentifier, signal) }
    }

    /// Waits up to `timeout` seconds until the output holds `text` `count` times.
    public func waitForLog(_ text: String, count: Int = 1, timeout: Double = 10) -> Bool {
        eventually(timeout: timeout) { self.log.components(separatedBy: text).count - 1 >= count }
    }

    /// Everything the daemon printed so far.
    public var log: String { collected.text }

    /// Sends `signal` and waits up to `timeout` seconds for the process to exit; returns its status, or `nil`.
    @discardableResult
    public func stop(signal: Int32 = SIGTERM, timeout: Double = 10) -> Int32? {
        send(signal)
        return waitForExit(timeout: timeout)
    }

    /// Waits up to `timeout` seconds for the process to exit; returns its status, or `nil` if it is still running.
    public func waitForExit(timeout: Double) -> Int32? {
        let deadline = Deadline(seconds: timeout)
        while process.isRunning && !deadline.hasPassed { usleep(20_000) }
        guard !process.isRunning else { return nil }
        return process.terminationStatus
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        output.fileHandleForReading.readabilityHandler = nil
    }
}

/// Collected process output, appended from the pipe's handler thread.
final class OutputBuffer: @unchecked Sendable {
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
