import Foundation
import Synchronization
import Testing
import TiltCore
import TiltTestKit

/// The one way tilt catches signals. SIGWINCH and SIGURG stand in for SIGINT and SIGTERM: their default action is to
/// be ignored, so a test that fails cannot stop the test runner (and the runtime keeps SIGURG for itself).
@Suite(.serialized)
struct StopSignalsTests {
    /// How `number` is handled now: `SIG_DFL`, `SIG_IGN`, or a handler.
    private static func disposition(_ number: Int32) -> sighandler_t? {
        var current = sigaction()
        sigaction(number, nil, &current)
        return current.__sigaction_handler.sa_handler
    }

    private static func isDefault(_ number: Int32) -> Bool {
        disposition(number).map { unsafeBitCast($0, to: Int.self) == 0 } ?? true
    }

    @Test func aSignalIsRememberedAndHandedToTheHandlerInsteadOfEndingTheProcess() throws {
        let seen = Mutex<[Int32]>([])
        let stops = StopSignals([SIGWINCH, SIGURG]) { number in seen.withLock { $0.append(number) } }
        defer { stops.cancel() }
        #expect(!stops.received)
        #expect(stops.firstSignal == nil)
        kill(getpid(), SIGURG)
        let deadline = Deadline(seconds: 10)
        while seen.withLock({ $0.isEmpty }) && !deadline.hasPassed { usleep(5_000) }
        #expect(seen.withLock { $0 } == [SIGURG])
        #expect(stops.received)
        #expect(stops.firstSignal == SIGURG)
        kill(getpid(), SIGWINCH)
        while seen.withLock({ $0.count < 2 }) && !deadline.hasPassed { usleep(5_000) }
        #expect(seen.withLock { $0 } == [SIGURG, SIGWINCH])
        #expect(stops.firstSignal == SIGURG, "the first one is kept")
    }

    @Test func cancellingGivesTheSignalsTheirDefaultActionBackOnce() {
        let stops = StopSignals([SIGWINCH])
        #expect(!Self.isDefault(SIGWINCH), "ignored while watched, so it cannot end the process")
        stops.cancel()
        #expect(Self.isDefault(SIGWINCH))
        stops.cancel()
        #expect(Self.isDefault(SIGWINCH))
    }
}
