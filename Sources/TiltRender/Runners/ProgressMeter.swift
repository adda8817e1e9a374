import FoundationEssentials
import Glibc
import TiltCore

/// Progress of long work (a frame sequence), shown on standard error so standard output stays clean.
///
/// On a terminal it redraws one line (`\r`) with a bar and a count, at most ten times a second. Anywhere else (a
/// pipe, a log file) it writes a whole line only every ``interval`` seconds, so a reader sees that work goes on
/// without a line per frame.
package final class ProgressMeter {
    /// The amount of work, in ``unit``s.
    package let total: Int
    /// What is counted (`frames`).
    package let unit: String
    /// Whether to redraw one line in place (stderr is a terminal).
    package let interactive: Bool
    /// Seconds between lines when not interactive.
    package let interval: Double
    private let write: (String) -> Void
    private let now: () -> Double
    private let start: Double
    private var lastShown: Double
    private var drewLine = false

    /// A meter writing to `write`; `now` gives seconds on any monotonic scale (injectable for tests).
    package init(
        total: Int, unit: String, interactive: Bool, interval: Double = 2, now: @escaping () -> Double,
        write: @escaping (String) -> Void
    ) {
        self.total = max(total, 1)
        self.unit = unit
        self.interactive = interactive
        self.interval = interval
        self.write = write
        self.now = now
        start = now()
        lastShown = start
    }

    /// A meter on standard error: interactive when it is a terminal. `$TILTFX_PROGRESS_INTERVAL` sets the seconds
    /// between lines otherwise (default 2).
    package static func standardError(total: Int, unit: String) -> ProgressMeter {
        let environment = ProcessInfo.processInfo.environment
        let interval = environment["TILTFX_PROGRESS_INTERVAL"].flatMap(Double.init).map { max(0, $0) } ?? 2
        let clock = ContinuousClock()
        let origin = clock.now
        return ProgressMeter(
            total: total, unit: unit, interactive: isatty(STDERR_FILENO) == 1, interval: interval,
            now: { origin.duration(to: clock.now).inSeconds },
            write: { StandardStream.error.write(Data($0.utf8)) })
    }

    /// Says that `done` units are finished.
    package func update(done: Int) {
        let t = now()
        let last = done >= total
        if interactive {
            guard last || t - lastShown >= 0.1 else { return }
            lastShown = t
            drewLine = true
            write("\r\u{1B}[K" + bar(done) + " " + status(done, elapsed: t - start) + (last ? "\n" : ""))
            if last { drewLine = false }
        } else {
            guard !last, t - lastShown >= interval else { return }
            lastShown = t
            write(status(done, elapsed: t - start) + "\n")
        }
    }

    /// Ends the line being redrawn (after an error), so the next message starts on its own line.
    package func finish() {
        if interactive && drewLine { write("\n") }
        drewLine = false
    }

    /// `12/60 frames (20 %), 3.1 s, about 12 s left`.
    func status(_ done: Int, elapsed: Double) -> String {
        let percent = done * 100 / total
        var text = "\(done)/\(total) \(unit) (\(percent) %), " + String(printf: "%.1f s", elapsed)
        if done > 0 && done < total {
            let left = elapsed / Double(done) * Double(total - done)
            text += String(printf: ", about %.0f s left", left.rounded(.up))
        }
        return text
    }

    private func bar(_ done: Int) -> String {
        let width = 24
        let filled = min(width, done * width / total)
        return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "]"
    }
}
