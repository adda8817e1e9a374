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
        /// Fails the job's promise with ``Stopped`` (a job still queued when the thread stops).
        let refuse: @Sendable () -> Void
    }

    /// What the promise of a job submitted after ``stop()``, or still queued then, fails with.
    struct Stopped: Error, CustomStringConvertible {
        var description: String { "the server is stopping; the shader compiler takes no more work" }
    }

    private let wakeup = ThreadCondition()
    private var jobs: [Job] = []
    private var stopped = false
    /// The thread has run its last job and released its GL context.
    private var ended = false

    /// Starts the thread (the context is made on it, at once, so the first compile does not pay for it).
    init() {
        startThread(name: "tiltfx-serve-gl") { [self] in
            run()
            wakeup.lock()
            ended = true
            wakeup.broadcast()
            wakeup.unlock()
        }
    }

    /// Runs `work` on the GL thread with its context (or why there is none) and completes `promise` with its result;
    /// after ``stop()``, fails `promise` with ``Stopped`` instead.
    func submit<T: Sendable>(
        on promise: EventLoopPromise<T>, _ work: @escaping @Sendable (Result<HeadlessContext, RenderError>) -> T
    ) {
        let job = Job(work: { context in promise.succeed(work(context)) }, refuse: { promise.fail(Stopped()) })
        wakeup.lock()
        let accepted = !stopped
        if accepted {
            jobs.append(job)
            wakeup.signal()
        }
        wakeup.unlock()
        if !accepted { job.refuse() }
    }

    /// Ends the thread: the job running finishes, the queued ones fail with ``Stopped``, and this returns once the
    /// thread has ended and released its GL context. A process must not exit while another thread is inside Mesa
    /// (its exit handlers then abort: `tiltfx serve` did, once, when SIGTERM came with compiles queued).
    func stop() {
        wakeup.lock()
        stopped = true
        let dropped = jobs
        jobs = []
        wakeup.broadcast()
        wakeup.unlock()
        for job in dropped { job.refuse() }
        wakeup.lock()
        while !ended { wakeup.wait() }
        wakeup.unlock()
    }

    /// Whether the thread has ended (after ``stop()`` returned, always).
    var hasEnded: Bool {
        wakeup.lock()
        defer { wakeup.unlock() }
        return ended
    }

    /// Makes the context, runs jobs until stopped, and releases the context when it returns.
    private func run() {
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
