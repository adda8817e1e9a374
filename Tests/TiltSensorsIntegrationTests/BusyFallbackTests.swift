import Foundation
import Testing
import TiltCore

@testable import TiltIIO
@testable import TiltSensors

#if canImport(Glibc)
    import Glibc
#endif

/// The parts of the busy-buffer fallback that need no device: the retry schedule, keeping time moving forward across
/// the switch, and finding who holds a node in the real `/proc`.
struct BusyFallbackTests {
    @Test("a busy buffer is tried after 2 s, then 4, 8, 16 and every 30 s; success starts over at 2 s")
    func retrySchedule() {
        var retry = BusyRetry(Backoff(initial: .seconds(2), maximum: .seconds(30)), now: 100)
        #expect(retry.retryAt == 102)
        #expect(!retry.isDue(at: 101.9) && retry.isDue(at: 102))
        var waits: [Double] = []
        var now = 102.0
        for _ in 0..<6 {
            retry.back(now: now)
            waits.append(retry.retryAt - now)
            now = retry.retryAt
        }
        #expect(waits == [4, 8, 16, 30, 30, 30])
        // The buffer came back; the next busy spell (a new capture) starts over.
        let again = BusyRetry(Backoff(initial: .seconds(2), maximum: .seconds(30)), now: 500)
        #expect(again.retryAt == 502)
    }

    @Test("a sample not after the last one is refused with a reason; later ones go on")
    func timeMovesForward() {
        var order = SampleOrder()
        func sample(_ t: Double) -> MotionSample {
            MotionSample(time: t, gyro: .zero, accel: Vector3(0, 0, 9.8), mag: nil)
        }
        #expect(order.admit(sample(10.00)) == nil)
        #expect(order.admit(sample(10.02)) == nil)
        #expect(order.admit(sample(10.02))?.contains("not after the previous") == true, "a duplicate time")
        #expect(order.admit(sample(9.5)) != nil, "a time going backwards")
        #expect(order.admit(sample(10.04)) == nil)
        #expect(order.lastTime == 10.04)
    }

    @Test("the holder of a node is found in /proc by its open file, with its name and pid")
    func holderFromProc() throws {
        let path = NSTemporaryDirectory() + "tilt-node-\(UUID().uuidString.prefix(8))"
        try Data("x".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(IIONodeHolder.find(node: path) == nil, "nobody holds it yet")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sleep")
        p.arguments = ["30"]
        p.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        try p.run()
        defer { kill(p.processIdentifier, SIGKILL) }
        var found: IIONodeHolder?
        for _ in 0..<100 where found == nil {
            found = IIONodeHolder.find(node: path)
            if found == nil { usleep(20_000) }
        }
        #expect(found == IIONodeHolder(name: "sleep", pid: Int(p.processIdentifier)))
        #expect(found?.description == "sleep (pid \(p.processIdentifier))")
    }
}
