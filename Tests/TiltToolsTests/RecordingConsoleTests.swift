import Synchronization
import Testing
import TiltTools

/// `tilt record`'s standard error: a progress line redrawn on a terminal, plain lines anywhere else.
@Suite
struct RecordingConsoleTests {
    /// What a console wrote.
    final class Written: Sendable {
        let texts = Mutex<[String]>([])
        var all: String { texts.withLock { $0.joined() } }
    }

    private func console(terminal: Bool) -> (RecordingConsole, Written) {
        let written = Written()
        return (RecordingConsole(terminal: terminal) { text in written.texts.withLock { $0.append(text) } }, written)
    }

    @Test("not a terminal: each progress update is a line of its own, and no \\r or blank line appears")
    func plainLines() {
        let (console, written) = console(terminal: false)
        console.say("recording from tiltd at /s\n")
        console.say("\rrecording out.csv: 1 samples, 0.0 s of sensor time")
        console.say("\rrecording out.csv: 200 samples, 1.0 s of sensor time")
        console.say("\nsensor idle: stopped\n")
        console.line("recorded 200 samples to out.csv (0 rejected)")
        #expect(
            written.all == "recording from tiltd at /s\nrecording out.csv: 1 samples, 0.0 s of sensor time\n"
                + "recording out.csv: 200 samples, 1.0 s of sensor time\nsensor idle: stopped\n"
                + "recorded 200 samples to out.csv (0 rejected)\n")
    }

    @Test("a terminal: progress is redrawn in place, and an event or a last line first ends it")
    func terminal() {
        let (console, written) = console(terminal: true)
        console.say("\nsensor active: replaying\n")
        console.say("\rrecording out.csv: 1 samples, 0.0 s of sensor time")
        console.say("\rrecording out.csv: 2 samples, 0.0 s of sensor time")
        console.say("\nsensor idle: stopped\n")
        console.say("\rrecording out.csv: 3 samples, 0.1 s of sensor time")
        console.line("recorded 3 samples to out.csv (0 rejected)")
        console.line("error: none")
        #expect(
            written.all == "sensor active: replaying\n\r\u{1B}[Krecording out.csv: 1 samples, 0.0 s of sensor time"
                + "\r\u{1B}[Krecording out.csv: 2 samples, 0.0 s of sensor time\nsensor idle: stopped\n"
                + "\r\u{1B}[Krecording out.csv: 3 samples, 0.1 s of sensor time\n"
                + "recorded 3 samples to out.csv (0 rejected)\nerror: none\n")
    }
}
