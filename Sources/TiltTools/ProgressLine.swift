import FoundationEssentials
import TiltCore

#if canImport(Glibc)
    import Glibc
#endif

/// A progress line on standard error: rewritten in place on a terminal, else one plain line a second.
package struct ProgressLine {
    private let terminal: Bool
    private let write: (String) -> Void
    private let now: () -> ContinuousClock.Instant
    private var last: ContinuousClock.Instant
    private var shown = false

    /// A progress line written by `write` (default: standard error); `terminal` (default: whether standard error
    /// is one) rewrites it in place at most five times a second, else each text is a line of its own, at most one
    /// a second. `now` is the clock the intervals are measured on.
    package init(
        terminal: Bool = isatty(STDERR_FILENO) == 1,
        write: @escaping (String) -> Void = { StandardStream.error.write(Data($0.utf8)) },
        now: @escaping () -> ContinuousClock.Instant = { ContinuousClock.now }
    ) {
        self.terminal = terminal
        self.write = write
        self.now = now
        last = now() - .seconds(1)
    }

    /// Shows `text` unless the last one was shown very recently (`force` shows it anyway).
    package mutating func show(_ text: String, force: Bool = false) {
        let interval: Duration = terminal ? .milliseconds(200) : .seconds(1)
        let time = now()
        guard force || time - last >= interval else { return }
        last = time
        if terminal {
            shown = true
            write("\r\u{1B}[K" + text)
        } else {
            write(text + "\n")
        }
    }

    /// Ends the line.
    package mutating func finish() {
        if shown { write("\n") }
        shown = false
    }
}
