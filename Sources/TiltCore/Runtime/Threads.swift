#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

// Threads of the programs' own (a blocking read, a D-Bus loop, a GL context), started with pthreads: Foundation's
// Thread and NSCondition are not in FoundationEssentials, which is all the programs link (scripts/release-build).

/// Starts a detached thread named `name` (what `top -H` and a debugger show; Linux keeps 15 bytes) that runs `body`.
public func startThread(name: String, _ body: @escaping @Sendable () -> Void) {
    final class Start: @unchecked Sendable {
        let name: String
        let body: @Sendable () -> Void
        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }
    let start = Unmanaged.passRetained(Start(name: name, body: body)).toOpaque()
    var thread = pthread_t()
    let code = pthread_create(
        &thread, nil,
        { raw in
            let start = Unmanaged<Start>.fromOpaque(raw!).takeRetainedValue()
            nameThisThread(start.name)
            start.body()
            return nil
        }, start)
    guard code == 0 else {
        Unmanaged<AnyObject>.fromOpaque(start).release()
        fatalError("cannot start the thread \(name): \(String(cString: strerror(code)))")
    }
    pthread_detach(thread)
}

/// Names the calling thread through /proc/thread-self/comm (what pthread_setname_np does; Glibc's module map does
/// not declare it), keeping the 15 bytes Linux keeps.
private func nameThisThread(_ name: String) {
    let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    let bytes = Array(name.utf8.prefix(15))
    _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    close(descriptor)
}

/// Sleeps the calling thread for `seconds` (none when zero or less), as Foundation's `Thread.sleep(forTimeInterval:)`.
public func sleepThread(seconds: Double) {
    guard seconds > 0, seconds.isFinite else { return }
    var time = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
    var left = timespec()
    while nanosleep(&time, &left) == -1 && errno == EINTR { time = left }
}

/// A mutex with a condition variable, as Foundation's `NSCondition`: `lock()`, then `wait()` until signalled (it
/// unlocks while waiting), `signal()` or `broadcast()` while holding the lock, `unlock()`.
public final class ThreadCondition: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    public func lock() { pthread_mutex_lock(mutex) }
    public func unlock() { pthread_mutex_unlock(mutex) }
    public func wait() { pthread_cond_wait(condition, mutex) }
    public func signal() { pthread_cond_signal(condition) }
    public func broadcast() { pthread_cond_broadcast(condition) }
}
