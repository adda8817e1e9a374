import FoundationEssentials
import NIOCore
import TiltCore
import TiltGL

/// One thread that owns a headless EGL context and runs every compile, one at a time, in order.
///
/// A GL context is current on one thread, and compiling on the event loops would stall every connection; so jobs
/// are queued here and their results come back through NIO promises.
///
/// `@unchecked Sendable`: `jobs` and `stopped` are read and written only while holding `wakeup`.
final class ShaderCompileThread: @unchecked Sendable {
    private struct Job {
        let work: @Sendable (Result<HeadlessContext, RenderError>) -> Void
    }

    /// What the promise of a job submitted after ``stop()`` fails with.
    struct Stopped: Error, CustomStringConvertible {
        var description: String { "the server is stopping; the shader compiler takes no more work" }
    }

    private let wakeup = ThreadCondition()
    private var jobs: [Job] = []
    private var stopped = false

    /// Starts the thread (the context is made on it, at once, so the first compile does not pay for it).
    init() {
        startThread(name: "tiltfx-serve-gl") { [self] in loop() }
    }

    /// Runs `work` on the GL thread with its context (or why there is none) and completes `promise` with its result;
    /// after ``stop()``, fails `promise` with ``Stopped`` instead.
    func submit<T: Sendable>(
        on promise: EventLoopPromise<T>, _ work: @escaping @Sendable (Result<HeadlessContext, RenderError>) -> T
    ) {
        let job = Job { context in promise.succeed(work(context)) }
        wakeup.lock()
        let accepted = !stopped
        if accepted {
            jobs.append(job)
            wakeup.signal()
        }
        wakeup.unlock()
        if !accepted { promise.fail(Stopped()) }
    }

    /// Ends the thread after the jobs queued so far.
    func stop() {
        wakeup.lock()
        stopped = true
        wakeup.signal()
        wakeup.unlock()
    }

    private func loop() {
        let context = Result { () throws(RenderError) -> HeadlessContext in try HeadlessContext() }
        while true {
            wakeup.lock()
            var next: Job?
            while true {
                if !jobs.isEmpty {
                    next = jobs.removeFirst()
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
