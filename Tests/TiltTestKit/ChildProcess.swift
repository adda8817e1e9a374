import Foundation

/// A finished child process: how it ended and what it printed.
public struct ChildProcess: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String

    /// Runs `executable arguments…` to completion, with `environment` merged over this process's environment.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:]
    ) throws -> ChildProcess {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { $1 }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        return collect(process, stdout: out, stderr: err)
    }

    /// Reads both pipes of a started `process` to their end (at once, so neither can fill up and stall the child),
    /// then waits for it.
    public static func collect(_ process: Process, stdout: Pipe, stderr: Pipe) -> ChildProcess {
        let errorBox = DataBox()
        let reader = DispatchGroup()
        DispatchQueue.global().async(group: reader) {
            errorBox.data = stderr.fileHandleForReading.readDataToEndOfFile()
        }
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        reader.wait()
        process.waitUntilExit()
        return ChildProcess(
            status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: errorBox.data, as: UTF8.self))
    }
}

/// Bytes filled on another thread; read only after that thread is done (the DispatchGroup wait orders it).
private final class DataBox: @unchecked Sendable {
    var data = Data()
}
