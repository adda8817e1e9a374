import Foundation
import Testing
import TiltCore
import TiltTestKit

#if canImport(Glibc)
    import Glibc
#endif

/// A client that floods commands and never reads its answers.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct DaemonBackpressureTests {
    @Test("a client that sends commands but never reads is not read from until it does (bounded daemon memory)")
    func unreadAnswersStopReading() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("d.sock").path
        // No rate limit here: this is about answers piling up, not about commands refused.
        let daemon = try DaemonProcess(
            socketPath: path, arguments: ["--replay", TestPaths.broadExcerpt, "--commands-per-second", "0"])
        defer { daemon.stop() }
        let flooder = try LineSocket(path: path)
        _ = fcntl(flooder.fd, F_SETFL, fcntl(flooder.fd, F_GETFL) | O_NONBLOCK)
        let chunk = Array(String(repeating: #"{"cmd":"status"}"# + "\n", count: 256).utf8)
        /// Sends for `seconds`; returns the bytes the kernel took.
        func flood(for seconds: Double) -> Int {
            var sent = 0
            let end = monotonicSeconds() + seconds
            while monotonicSeconds() < end {
                let n = chunk.withUnsafeBytes { send(flooder.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if n > 0 { sent += n } else { usleep(5_000) }
            }
            return sent
        }
        let first = flood(for: 3)
        #expect(first > 0)
        // By now every socket buffer on the way is full and the daemon has stopped reading: nothing more goes in.
        let later = flood(for: 1.5)
        #expect(later == 0, "the daemon kept reading \(later) more bytes from a client that reads nothing")
        // Once the client reads, it gets its answers and the daemon reads its commands again.
        let observer = try LineSocket(path: path)
        #expect(observer.read(class: "hello") != nil)
        #expect(flooder.read(class: "status", timeout: 10) != nil)
    }

    @Test("a client that floods over the rate limit and never reads is disconnected, and others are still served")
    func floodingNonReaderIsDisconnected() throws {
        let dir = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("d.sock").path
        let daemon = try DaemonProcess(socketPath: path, arguments: ["--replay", TestPaths.broadExcerpt])
        defer { daemon.stop() }
        let flooder = try LineSocket(path: path)
        _ = fcntl(flooder.fd, F_SETFL, fcntl(flooder.fd, F_GETFL) | O_NONBLOCK)
        let chunk = Array(String(repeating: #"{"cmd":"status"}"# + "\n", count: 256).utf8)
        // Send until the daemon hangs up: EPIPE (or ECONNRESET) once it has closed its end.
        var hungUp = false
        let end = monotonicSeconds() + 15
        while monotonicSeconds() < end, !hungUp {
            let n = chunk.withUnsafeBytes { send(flooder.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EPIPE || errno == ECONNRESET { hungUp = true } else { usleep(5_000) }
            }
        }
        #expect(hungUp, "the daemon kept a flooding client that reads nothing")
        let other = try LineSocket(path: path)
        try other.send(#"{"cmd":"status"}"#)
        #expect(other.read(class: "status") != nil, "the daemon keeps serving others")
    }
}
