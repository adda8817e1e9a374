import Foundation
import NIOConcurrencyHelpers
import NIOCore
import TiltRender

/// One thread that owns a headless EGL context and runs every compile, one at a time, in order.
///
/// A GL context is current on one thread, and compiling on the event loops would stall every connection; so jobs
/// are queued here and their results come back through NIO promises.
final class ShaderCompileThread: Sendable {
    private struct Job {
        let work: @Sendable (Result<HeadlessContext, RenderError>) -> Void
    }

    private let queue = NIOLockedValueBox<(jobs: [Job], stopped: Bool)>(([], false))
    private let wakeup = NSCondition()

    /// Starts the thread (the context is made on it, at once, so the first compile does not pay for it).
    init() {
        let thread = Thread { [self] in loop() }
        thread.name = "tiltfx-serve-gl"
        thread.start()
    }

    /// Runs `work` on the GL thread with its context (or why there is none) and completes `promise` with its result.
    func submit<T: Sendable>(
        on promise: EventLoopPromise<T>, _ work: @escaping @Sendable (Result<HeadlessContext, RenderError>) -> T
    ) {
        let job = Job { context in promise.succeed(work(context)) }
        wakeup.lock()
        queue.withLockedValue { $0.jobs.append(job) }
        wakeup.signal()
        wakeup.unlock()
    }

    /// Ends the thread after the jobs queued so far.
    func stop() {
        wakeup.lock()
        queue.withLockedValue { $0.stopped = true }
        wakeup.signal()
        wakeup.unlock()
    }

    private func loop() {
        let context = Result { () throws(RenderError) -> HeadlessContext in try HeadlessContext() }
        while true {
            wakeup.lock()
            var next: Job?
            while true {
                let (job, stopped) = queue.withLockedValue { state -> (Job?, Bool) in
                    (state.jobs.isEmpty ? nil : state.jobs.removeFirst(), state.stopped)
                }
                if let job {
                    next = job
                    break
                }
                if stopped { break }
                wakeup.wait()
            }
            wakeup.unlock()
            guard let next else { break }
            next.work(context)
        }
        withExtendedLifetime(context) {}
    }
}
