import Synchronization
import TiltCore
import TiltTools

/// A console that answers every prompt from a script and keeps what was said.
final class ScriptedConsole: Sendable {
    private let state: Mutex<(answers: [String?], said: [String], progress: [String])>

    /// Answers `answers` in turn (`nil`: the input ended), then Enter for every later prompt.
    init(answers: [String?] = []) {
        state = Mutex((answers, [], []))
    }

    /// The lines said, in order.
    var said: [String] { state.withLock { $0.said } }
    /// What the progress lines wrote.
    var progress: [String] { state.withLock { $0.progress } }

    var console: CalibrationConsole {
        CalibrationConsole(
            say: { line in self.state.withLock { $0.said.append(line) } },
            readLine: {
                self.state.withLock { state -> String? in
                    state.answers.isEmpty ? "" : state.answers.removeFirst()
                }
            },
            progressLine: {
                ProgressLine(terminal: false) { text in self.state.withLock { $0.progress.append(text) } }
            })
    }
}

/// A stream of raw samples from a script: each `collectSpan` returns the next batch; `snapshot` returns a longer
/// prefix of `growing` each time it is called (`step` samples more).
final class ScriptedStream: CalibrationSampleStream {
    private let state: Mutex<(batches: [[MotionSample]], shown: Int, restarts: Int)>
    private let growing: [MotionSample]
    private let step: Int

    init(batches: [[MotionSample]] = [], growing: [MotionSample] = [], step: Int = 100) {
        state = Mutex((batches, 0, 0))
        self.growing = growing
        self.step = step
    }

    var restarts: Int { state.withLock { $0.restarts } }

    func restart() {
        state.withLock {
            $0.restarts += 1
            $0.shown = 0
        }
    }

    func snapshot() throws -> [MotionSample] {
        let shown = state.withLock { state -> Int in
            state.shown = min(state.shown + step, growing.count)
            return state.shown
        }
        return Array(growing.prefix(shown))
    }

    func collectSpan(seconds: Double, progress: (Double, Int) -> Void) async throws -> [MotionSample] {
        let batch = state.withLock { $0.batches.isEmpty ? [] : $0.batches.removeFirst() }
        progress((batch.last?.time ?? 0) - (batch.first?.time ?? 0), batch.count)
        return batch
    }
}
