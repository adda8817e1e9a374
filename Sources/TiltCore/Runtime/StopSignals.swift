import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// SIGINT and SIGTERM taken as requests to stop: the one way tilt's programs catch signals.
///
/// While a `StopSignals` is watching, the signals no longer end the process by themselves: each one that arrives is
/// remembered (``received``, for a loop that polls) and handed to `onSignal` on a Dispatch queue (for code that
/// waits). Ctrl-C on `tilt record`, SIGTERM from a service manager to `tiltfx serve` or `tiltfx run --headless`, and an
/// interrupted `tilt fuse` that must remove its temporary file all go through it. ``cancel()`` gives the signals
/// their default action back.
///
/// The signals are read by Dispatch signal sources, with their default action set to ignore (so they do not end the
/// process before the source sees them); `init` returns once the sources are armed, so no signal sent after it is
/// lost. Dispatch's own threads block signals, and a parent may pass on a blocked
/// mask: the signals are unblocked on the thread that starts watching, so they reach the process.
///
/// `@unchecked Sendable`: the sources are set up in `init` and only cancelled after (`cancel` is idempotent under the
/// lock); the rest is atomic.
public final class StopSignals: @unchecked Sendable {
    /// The signals watched.
    public let signals: [Int32]
    private let first = FirstSignal()
    private let sources: Mutex<[any DispatchSourceSignal]>

    /// Starts watching `signals`.
    /// - Parameter onSignal: called on a Dispatch queue with each signal that arrives.
    public init(_ signals: [Int32] = [SIGINT, SIGTERM], onSignal: @escaping @Sendable (Int32) -> Void = { _ in }) {
        self.signals = signals
        let first = self.first
        var mask = sigset_t()
        sigemptyset(&mask)
        for number in signals { sigaddset(&mask, number) }
        pthread_sigmask(SIG_UNBLOCK, &mask, nil)
        sources = Mutex(
            signals.map { number in
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                signal(number, SIG_IGN)
                source.setEventHandler {
                    _ = first.value.compareExchange(expected: 0, desired: number, ordering: .relaxed)
                    onSignal(number)
                }
                // Dispatch arms a source asynchronously; until then an ignored signal would be lost. Wait for it.
                let armed = DispatchSemaphore(value: 0)
                source.setRegistrationHandler { armed.signal() }
                source.resume()
                armed.wait()
                return source
            })
    }

    deinit { cancel() }

    /// Whether one of the signals arrived.
    public var received: Bool { first.value.load(ordering: .relaxed) != 0 }

    /// The first signal that arrived, or `nil`.
    public var firstSignal: Int32? {
        let number = first.value.load(ordering: .relaxed)
        return number == 0 ? nil : number
    }

    /// Stops watching and gives the signals their default action back. Safe to call more than once.
    public func cancel() {
        sources.withLock { sources in
            guard !sources.isEmpty else { return }
            for source in sources { source.cancel() }
            for number in signals { signal(number, SIG_DFL) }
            sources = []
        }
    }

    /// Ends the process as `number` would have by default, after a handler has done its cleaning: the default
    /// action back, the signal unblocked on this thread, and sent to the process again.
    public static func resend(_ number: Int32) -> Never {
        signal(number, SIG_DFL)
        var only = sigset_t()
        sigemptyset(&only)
        sigaddset(&only, number)
        pthread_sigmask(SIG_UNBLOCK, &only, nil)
        kill(getpid(), number)
        // A signal whose default action does not end the process (none of tilt's) returns here.
        exit(128 + number)
    }
}

/// The first signal received (0: none), shared with the sources' handlers.
private final class FirstSignal: Sendable {
    let value = Atomic<Int32>(0)
}
