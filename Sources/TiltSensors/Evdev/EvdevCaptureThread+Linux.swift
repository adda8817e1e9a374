import Synchronization
import TiltCore

/// Runs an ``EvdevReader``'s waits for events on a thread of its own (Linux only), so waiting for the device never
/// holds one of the few threads of Swift's cooperative pool, and hands what it reads to the calling task as an async
/// sequence.
///
/// The reader is used by the thread only until ``stopAndWait()`` returns; after that the caller may close it.
final class EvdevCaptureThread: Sendable {
    /// What the thread reports: samples, or the error that ended it.
    typealias Report = Result<[(MotionSample, afterGap: Bool)], EvdevError>

    /// Reports, in order; finishes when the thread ends.
    let reports: AsyncStream<Report>
    private let stopRequested = Atomic<Bool>(false)
    private let exit = Latch()

    /// A reader moved to the capture thread.
    private struct ReaderBox: @unchecked Sendable {
        // Safe: only the capture thread touches the reader until stopAndWait() has seen the thread end.
        let reader: EvdevReader
    }

    /// Starts reading with waits of at most `sliceMilliseconds` between checks for a stop request.
    init(reader: EvdevReader, sliceMilliseconds: Int32) {
        let (reports, input) = AsyncStream.makeStream(of: Report.self, bufferingPolicy: .bufferingNewest(4096))
        self.reports = reports
        let box = ReaderBox(reader: reader)
        startThread(name: "tilt-evdev") { [self] in
            while !stopRequested.load(ordering: .relaxed) {
                do throws(EvdevError) {
                    if case .samples(let samples) = try box.reader.step(timeoutMs: sliceMilliseconds) {
                        input.yield(.success(samples))
                    }
                } catch {
                    input.yield(.failure(error))
                    break
                }
            }
            input.finish()
            exit.open()
        }
    }

    /// Asks the thread to stop (it notices within one slice) without waiting.
    func requestStop() { stopRequested.store(true, ordering: .relaxed) }

    /// Asks the thread to stop and waits until it has ended, even when the calling task is cancelled.
    func stopAndWait() async {
        requestStop()
        await exit.wait()
    }
}
