import FoundationEssentials
import Synchronization
import TiltCore

/// Runs a buffered ``IIOCaptureSession``'s blocking reads on a thread of its own (Linux only), so waiting for the
/// sensor never holds one of the few threads of Swift's cooperative pool, and hands what it reads to the calling
/// task as an async sequence.
///
/// The session is used by the thread only until ``stopAndWait()`` returns; after that the caller may use it again
/// (e.g. to destroy its buffer).
final class IIOCaptureThread: Sendable {
    /// What the thread reports: samples and rejections, or the error that ended it.
    typealias Report = Result<IIOCaptureSession.Step, IIOError>

    /// Reports, in order; finishes when the thread ends.
    let reports: AsyncStream<Report>
    private let input: AsyncStream<Report>.Continuation
    private let stopRequested = Atomic<Bool>(false)
    private let exit = Latch()

    /// A session moved to the capture thread.
    private struct SessionBox: @unchecked Sendable {
        // Safe: only the capture thread touches the session until stopAndWait() has seen the thread end.
        let session: IIOCaptureSession
    }

    /// Starts reading `session` with waits of at most `sliceMilliseconds` between checks for a stop request.
    init(session: IIOCaptureSession, sliceMilliseconds: Int32) {
        (reports, input) = AsyncStream.makeStream(of: Report.self, bufferingPolicy: .bufferingNewest(4096))
        let box = SessionBox(session: session)
        startThread(name: "tilt-iio-capture") { [self] in
            while !stopRequested.load(ordering: .relaxed) {
                do throws(IIOError) {
                    let step = try box.session.step(timeoutMs: sliceMilliseconds)
                    if case .samples = step { input.yield(.success(step)) }
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
