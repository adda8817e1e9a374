import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// What `tilt record` says on standard error: ``Recording``'s progress and events, and the command's own lines.
///
/// On a terminal the progress (a text ``Recording`` starts with `\r`) is one line redrawn in place, and an event
/// (a text starting with `\n`) first ends it. Anywhere else (a log file, a pipe, a service's journal) a `\r` would
/// pile every progress update onto one endless line, so each becomes a line of its own and events lose the line
/// break they carry for the terminal.
package final class RecordingConsole: Sendable {
    private let terminal: Bool
    private let write: @Sendable (String) -> Void
    /// Whether a progress line is on the terminal and not yet ended.
    private let progressShown = Mutex(false)

    /// A console writing through `write` (standard error in `tilt record`); `terminal`: whether that is one.
    package init(terminal: Bool = isatty(STDERR_FILENO) == 1, write: @escaping @Sendable (String) -> Void) {
        self.terminal = terminal
        self.write = write
    }

    /// Shows a text of ``Recording``'s (its `say`): progress starting with `\r`, events starting with `\n`, each
    /// carrying its own line breaks.
    package func say(_ text: String) {
        progressShown.withLock { shown in
            if text.hasPrefix("\r") {
                let progress = text.dropFirst()
                if terminal {
                    write("\r\u{1B}[K" + progress)
                    shown = true
                } else {
                    write(progress + "\n")
                }
                return
            }
            // The leading line break ends a progress line; without one on the screen it would be a blank line.
            let needsBreak = terminal && shown
            var event = Substring(text)
            if !needsBreak { while event.hasPrefix("\n") { event = event.dropFirst() } }
            write(String(event))
            shown = false
        }
    }

    /// Writes `text` as a line of its own, after ending a progress line on the terminal.
    package func line(_ text: String) {
        progressShown.withLock { shown in
            write((terminal && shown ? "\n" : "") + text + "\n")
            shown = false
        }
    }
}
