import Testing
import TiltTools

/// The progress line: in place on a terminal at most five times a second, else a line at most once a second.
@Suite
struct ProgressLineTests {
    /// A clock the test moves, and what was written.
    final class Harness {
        var time = ContinuousClock.now
        var written: [String] = []

        func line(terminal: Bool) -> ProgressLine {
            ProgressLine(terminal: terminal, write: { self.written.append($0) }, now: { self.time })
        }
    }

    @Test("not a terminal: one plain line a second; finish writes nothing")
    func plainLines() {
        let h = Harness()
        var line = h.line(terminal: false)
        line.show("a")
        line.show("b")
        h.time += .milliseconds(999)
        line.show("c")
        h.time += .milliseconds(1)
        line.show("d")
        line.show("e", force: true)
        line.finish()
        #expect(h.written == ["a\n", "d\n", "e\n"])
    }

    @Test("a terminal: the line is rewritten in place at most every 200 ms, and finish ends it")
    func terminalLine() {
        let h = Harness()
        var line = h.line(terminal: true)
        line.finish()
        #expect(h.written.isEmpty, "nothing shown, nothing to end")
        line.show("a")
        h.time += .milliseconds(100)
        line.show("b")
        h.time += .milliseconds(100)
        line.show("c")
        line.finish()
        line.finish()
        #expect(h.written == ["\r\u{1B}[Ka", "\r\u{1B}[Kc", "\n"])
    }
}
