import Synchronization

/// A one-way gate between a thread of its own and async code: the thread opens it once when it has ended, and
/// ``wait()`` returns when it is open (at once if it already is), even when the waiting task is cancelled.
///
/// For threads that must be seen to end before what they used is touched again: the IIO capture thread, the
/// sensor-proxy bus thread.
public final class Latch: Sendable {
    private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    /// A closed latch.
    public init() {}

    /// Whether it has been opened.
    public var isOpen: Bool { state.withLock { $0.open } }

    /// Opens the latch and lets every waiter go; opening it again does nothing.
    public func open() {
        let waiters = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            s.open = true
            defer { s.waiters = [] }
            return s.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the latch is open.
    public func wait() async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            let open = state.withLock { s -> Bool in
                if !s.open { s.waiters.append(c) }
                return s.open
            }
            if open { c.resume() }
        }
    }
}
