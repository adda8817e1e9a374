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
        compiler.submit(on: before) { _ in 7 }
        compiler.stop()
        let after = group.next().makePromise(of: Int.self)
        compiler.submit(on: after) { _ in 8 }
        #expect(try await before.futureResult.get() == 7)
        await #expect(throws: ShaderCompileThread.Stopped.self) { try await after.futureResult.get() }
        try await group.shutdownGracefully()
    }
}
