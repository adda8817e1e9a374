import FoundationEssentials
import TiltCore

/// How a calibration talks to the person holding the device: prompts and messages (standard error), answers
/// (standard input) and progress lines. Injected, so that the collection runs in tests without a terminal.
package struct CalibrationConsole: Sendable {
    /// Shows one line (without its newline).
    package var say: @Sendable (String) -> Void
    /// Waits for the person to press Enter; `nil` when the input has ended.
    package var readLine: @Sendable () async -> String?
    /// A new progress line.
    package var progressLine: @Sendable () -> ProgressLine

    /// A console of `say`, `readLine` and `progressLine`.
    package init(
        say: @escaping @Sendable (String) -> Void, readLine: @escaping @Sendable () async -> String?,
        progressLine: @escaping @Sendable () -> ProgressLine
    ) {
        self.say = say
        self.readLine = readLine
        self.progressLine = progressLine
    }

    /// Messages and progress on standard error, answers from standard input.
    package static let standard = CalibrationConsole(
        say: { StandardStream.error.write(Data(($0 + "\n").utf8)) }, readLine: readLineAsync,
        progressLine: { ProgressLine() })
}

/// Reads one line from standard input without blocking the cooperative thread pool; `nil` at end of input.
@Sendable func readLineAsync() async -> String? {
    await withCheckedContinuation { continuation in
        startThread(name: "tilt-readline") { continuation.resume(returning: readLine()) }
    }
}
