import Synchronization
import TiltCore

/// A source's blocking reads on a thread of its own, so that waiting for a device never holds one of the few threads
/// of Swift's cooperative pool: IIO buffers, evdev nodes and DSU sockets each read through one.
///
/// The thread calls `read` again and again until a stop is asked or `read` throws; what `read` returns (`nil`:
/// nothing this time) goes to the task that called ``drain(_:)``, in order. `read` should wait a short slice at most
/// (tens of milliseconds), since a stop is noticed between calls. Whatever `read` uses is the thread's until
/// ``drain(_:)`` returns; after that the caller may use it again (destroy an IIO buffer, close a node).
package final class CaptureThread<Output: Sendable, Failure: Error>: Sendable {
    private let reports: AsyncStream<Result<Output, Failure>>
    private let stopRequested = Atomic<Bool>(false)
    private let exit = Latch()

    /// Starts the thread, named `name` (what `top -H` shows).
    package init(name: String, read: @escaping @Sendable () throws(Failure) -> Output?) {
        let (reports, input) = AsyncStream.makeStream(
            of: Result<Output, Failure>.self, bufferingPolicy: .bufferingNewest(4096))
        self.reports = reports
        startThread(name: name) { [self] in
            while !stopRequested.load(ordering: .relaxed) {
                do throws(Failure) {
                    if let output = try read() { input.yield(.success(output)) }
                } catch {
                    input.yield(.failure(error))
                    break
                }
            }
            input.finish()
            exit.open()
        }
    }

    /// Hands each output to `deliver` until the calling task is cancelled or `read` fails, then stops the thread and
    /// waits for it to end (even when cancelled).
    ///
    /// - Throws: `read`'s error, or `CancellationError` when the task was cancelled.
    package func drain(_ deliver: (Output) -> Void) async throws {
        var failure: Failure?
        await withTaskCancellationHandler {
            for await report in reports {
                switch report {
                case .success(let output): deliver(output)
                case .failure(let error): failure = error
                }
            }
        } onCancel: {
            stopRequested.store(true, ordering: .relaxed)
        }
        stopRequested.store(true, ordering: .relaxed)
        await exit.wait()
        if let failure { throw failure }
        throw CancellationError()
    }
}

/// Something a capture thread reads from, moved to it: only that thread touches it until ``CaptureThread/drain(_:)``
/// has returned.
package struct CaptureBox<Value>: @unchecked Sendable {
    package init(value: Value) { self.value = value }
    package let value: Value
}
