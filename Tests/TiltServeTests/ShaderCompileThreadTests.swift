import Foundation
import NIOCore
import NIOPosix
import Testing

@testable import TiltServe

/// The GL thread of `/edit`: jobs run in order; once stopped it refuses new jobs rather than leave them waiting.
@Suite
struct ShaderCompileThreadTests {
    @Test(
        "a job before stop() completes; one submitted after stop() fails its promise instead of hanging",
        .timeLimit(.minutes(1)))
    func submitAfterStop() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let compiler = ShaderCompileThread()
        let before = group.next().makePromise(of: Int.self)
        let started = DispatchSemaphore(value: 0)
        compiler.submit(on: before) { _ in
            started.signal()
            return 7
        }
        started.wait()
        compiler.stop()
        #expect(compiler.hasEnded)
        let after = group.next().makePromise(of: Int.self)
        compiler.submit(on: after) { _ in 8 }
        #expect(try await before.futureResult.get() == 7)
        await #expect(throws: ShaderCompileThread.Stopped.self) { try await after.futureResult.get() }
        try await group.shutdownGracefully()
    }

    @Test(
        "stop() waits for the job running and the thread's end; jobs still queued fail instead of running",
        .timeLimit(.minutes(1)))
    func stopWaitsForTheRunningJob() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let compiler = ShaderCompileThread()
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let running = group.next().makePromise(of: Int.self)
        compiler.submit(on: running) { _ in
            started.signal()
            release.wait()
            finished.signal()
            return 1
        }
        let queued = group.next().makePromise(of: Int.self)
        compiler.submit(on: queued) { _ in 2 }
        started.wait()
        // stop() on another thread: it must not return before the running job has finished.
        let stopped = DispatchSemaphore(value: 0)
        let stopper = Thread {
            compiler.stop()
            #expect(finished.wait(timeout: .now()) == .success, "stop() returned while a job ran")
            stopped.signal()
        }
        stopper.start()
        // The queued job is refused at once, while the running one still holds the thread.
        await #expect(throws: ShaderCompileThread.Stopped.self) { try await queued.futureResult.get() }
        #expect(!compiler.hasEnded)
        release.signal()
        stopped.wait()
        #expect(compiler.hasEnded)
        #expect(try await running.futureResult.get() == 1)
        try await group.shutdownGracefully()
    }
}
