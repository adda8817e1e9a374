import Testing
import TiltCore

@Suite("Backoff")
struct BackoffTests {
    @Test("waits double from the first up to the longest, and start over after reset")
    func doublesAndResets() {
        var backoff = Backoff(initial: .milliseconds(100), maximum: .milliseconds(700))
        let waits = (0..<6).map { _ in backoff.next() }
        #expect(waits == [100, 200, 400, 700, 700, 700].map { Duration.milliseconds($0) })
        backoff.reset()
        #expect(backoff.current == .milliseconds(100))
        #expect(backoff.next() == .milliseconds(100))
    }

    @Test("a longest wait shorter than the first is the first")
    func maximumNeverBelowInitial() {
        var backoff = Backoff(initial: .seconds(2), maximum: .seconds(1))
        #expect(backoff.maximum == .seconds(2))
        #expect(backoff.next() == .seconds(2))
        #expect(backoff.next() == .seconds(2))
    }
}
