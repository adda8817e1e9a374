import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A real `tiltd` process started by a test, with its output captured.
public final class DaemonProcess {
    public let process = Process()
    public let socketPath: String
    private let output = Pipe()
    private let collected = OutputBuffer()

    /// Starts `tiltd` with `arguments` plus `--socket socketPath`.
    public init(socketPath: String, arguments: [String]) throws {
        self.socketPath = socketPath
        process.executableURL = URL(fileURLWithPath: TestPaths.executable("tiltd"))
        process.arguments = arguments + ["--socket", socketPath]
        process.standardOutput = output
        process.standardError = output
        let collected = self.collected
        output.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if !data.isEmpty { collected.append(data) }
        }
        guard FileManager.default.isExecutableFile(atPath: process.executableURL!.path) else {
            throw TestError(
                "tiltd is not built at \(process.executableURL!.path); run `swift build` first (scripts/test does)")
        }
        try process.run()
    }

    /// Everything the daemon printed so far.
    public var log: String { collected.text }

    /// Sends `signal` and waits up to `timeout` seconds for the process to exit; returns its status, or `nil`.
    @discardableResult
    public func stop(signal: Int32 = SIGTERM, timeout: Double = 10) -> Int32? {
        if process.isRunning { kill(process.processIdentifier, signal) }
        return waitForExit(timeout: timeout)
    }

    /// Waits up to `timeout` seconds for the process to exit; returns its status, or `nil` if it is still running.
    public func waitForExit(timeout: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(20_000) }
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
