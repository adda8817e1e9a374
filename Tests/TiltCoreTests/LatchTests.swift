import Foundation
import Synchronization
import Testing
import TiltCore

@Suite("Latch")
struct LatchTests {
    @Test("wait returns at once on an open latch, and opening twice is harmless")
    func openBeforeWait() async {
        let latch = Latch()
        #expect(!latch.isOpen)
        latch.open()
        latch.open()
        #expect(latch.isOpen)
        await latch.wait()
    }

    @Test("every waiter goes on when a thread opens the latch, none before")
    func waitersReleasedByThread() async {
        let latch = Latch()
        let tally = Tally()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<3 {
                group.addTask {
                    await latch.wait()
                    tally.through.add(1, ordering: .sequentiallyConsistent)
                }
            }
            let thread = Thread {
                tally.beforeOpen.store(
                    tally.through.load(ordering: .sequentiallyConsistent), ordering: .sequentiallyConsistent)
                latch.open()
            }
            thread.start()
            await group.waitForAll()
        }
        #expect(tally.beforeOpen.load(ordering: .sequentiallyConsistent) == 0)
        #expect(tally.through.load(ordering: .sequentiallyConsistent) == 3)
    }

    @Test("a cancelled task still waits for the latch")
    func cancelledWaiterStillWaits() async {
        let latch = Latch()
        let task = Task {
            await latch.wait()
            return latch.isOpen
        }
        task.cancel()
        latch.open()
        #expect(await task.value)
    }
}

/// Counts kept across the test's task and its thread.
private final class Tally: Sendable {
    /// Waiters that went on.
    let through = Atomic<Int>(0)
    /// How many had gone on when the thread opened the latch.
    let beforeOpen = Atomic<Int>(-1)
}
