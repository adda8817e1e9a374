import Foundation
import Testing
import TiltCore
import TiltTestKit

@testable import TiltTools

/// What `tilt record` decides before and after the samples, now in `Recording.run`: refusing an existing output,
/// and the words and verdict on samples tiltd could not send.
@Suite struct RecordingPolicyTests {
    @Test("an existing output is refused before any sample is waited for, and left as it was")
    func anExistingOutputIsRefused() async throws {
        let output = TestPaths.temporaryDirectory().appendingPathComponent("kept.csv").path
        try "header\n".write(toFile: output, atomically: false, encoding: .utf8)
        var request = Recording.Request(output: output)
        request.from = .iio
        request.uri = "ip:192.0.2.1"
        let console = RecordingConsole { _ in }
        await #expect(throws: (any Error).self) { _ = try await Recording.run(request, console: console) }
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "header\n")
    }

    @Test("lost samples are an error naming --allow-gaps, or a warning with it; reconnections are told apart")
    func theLossReport() {
        var outcome = Recording.Outcome(rows: 10, rejected: 0, opened: true)
        outcome.lost = 7
        outcome.gaps = 2
        #expect(
            Recording.lossReport(outcome, allowGaps: false)
                == "error: lost 7 samples that tiltd could not send (2 gaps marked in the log); pass --allow-gaps to "
                + "accept a log with gaps\n")
        outcome.gaps = 1
        outcome.reconnections = 1
        #expect(
            Recording.lossReport(outcome, allowGaps: true)
                == "warning: lost 7 samples that tiltd could not send (1 gap marked in the log, 1 of them "
                + "reconnections to tiltd, whose loss is not known)\n")
    }
}
