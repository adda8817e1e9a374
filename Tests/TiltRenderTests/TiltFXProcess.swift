import Foundation
import TiltTestKit

/// Runs the built `tiltfx` and captures what it prints.
struct TiltFXProcess {
    var status: Int32
    var stdout: String
    var stderr: String

    /// Runs `tiltfx arguments…` with software GL and no display, waiting for it to finish.
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> TiltFXProcess {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestPaths.executable("tiltfx"))
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["EGL_PLATFORM"] = "surfaceless"
        env["LIBGL_ALWAYS_SOFTWARE"] = "1"
        env.removeValue(forKey: "TILT_PRESETS")
        env.merge(environment) { $1 }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return TiltFXProcess(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }
}
