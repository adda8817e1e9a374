import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A private X server for a test: `Xvfb` on a display number it picks itself (`-displayfd`), one 1280×800 screen,
/// killed when the session goes away.
///
/// It runs with `-noreset`, so monitors a test sets with `xrandr --setmonitor` stay when the last client
/// disconnects (a resetting server would drop them).
public final class XvfbSession {
    /// Whether `Xvfb` is installed (scripts/bootstrap installs it with `xvfb`).
    public static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: xvfb) }

    /// Whether `xrandr` is installed (`x11-xserver-utils`).
    public static var hasXrandr: Bool { FileManager.default.isExecutableFile(atPath: xrandr) }

    private static let xvfb = "/usr/bin/Xvfb"
    private static let xrandr = "/usr/bin/xrandr"

    private let server: BackgroundProcess

    /// The display's name, `:N`.
    public let display: String

    /// Starts the server and waits (up to `timeout` seconds) until it accepts connections.
    /// - Throws: ``TestError`` when it does not start in time.
    /// - Parameter arguments: more of Xvfb's options (`-extension RANDR` turns RandR off).
    public init(width: Int = 1280, height: Int = 800, arguments: [String] = [], timeout: Double = 60) throws {
        server = try BackgroundProcess(
            Self.xvfb,
            ["-displayfd", "1", "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp", "-noreset"] + arguments)
        let server = server
        // Xvfb writes the display number once it listens.
        guard eventually(timeout: timeout, { !server.stdoutLines.isEmpty || !server.process.isRunning }),
            let number = server.stdoutLines.first.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) })
        else {
            server.kill()
            throw TestError("Xvfb did not start within \(timeout) s: \(server.stderr)")
        }
        display = ":\(number)"
    }

    /// Whether the server still runs.
    public var isRunning: Bool { server.process.isRunning }

    /// Kills the server (SIGKILL) and waits for it to end.
    public func kill() { server.kill() }

    /// Runs `xrandr ARGUMENTS…` against this display; returns its standard output.
    /// - Throws: ``TestError`` when it fails.
    @discardableResult
    public func xrandr(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.xrandr)
        process.arguments = ["-display", display] + arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let error = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TestError(
                "xrandr \(arguments.joined(separator: " ")) failed: \(String(decoding: error, as: UTF8.self))")
        }
        return String(decoding: output, as: UTF8.self)
    }

    deinit { server.kill() }
}
