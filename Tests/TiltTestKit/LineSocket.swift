import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A plain, blocking Unix-socket client for tests, independent of the code under test.
///
/// It reads and writes newline-terminated lines, with a timeout on every read.
// @unchecked Sendable: a test hands a socket to at most one thread at a time (it waits for that thread to finish).
public final class LineSocket: @unchecked Sendable {
    public let fd: Int32
    private var pending: [UInt8] = []

    /// Connects to `path`, retrying until `timeout` seconds have passed (the daemon may still be starting).
    public init(path: String, timeout: Double = 10) throws {
        let deadline = Deadline(seconds: timeout)
        while true {
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { throw TestError("socket() failed: errno \(errno)") }
            var addr = sockaddr_un()
            addr.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(path.utf8)
            withUnsafeMutableBytes(of: &addr.sun_path) { raw in
                for (i, b) in bytes.prefix(raw.count - 1).enumerated() { raw[i] = b }
            }
            let rc = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            if rc == 0 {
                self.fd = fd
                return
            }
            close(fd)
            if deadline.hasPassed { throw TestError("cannot connect to \(path): errno \(errno)") }
            usleep(20_000)
        }
    }

    deinit { close(fd) }

    /// Shrinks the kernel's receive buffer, so that a client that does not read backs up quickly.
    public func setReceiveBuffer(_ bytes: Int32) {
        var v = bytes
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &v, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Shuts down the sending side (`shutdown(SHUT_WR)`): the peer reads end-of-file, and this side can still read.
    public func shutdownWrite() {
        shutdown(fd, Int32(SHUT_WR))
    }

    /// Reads and discards whatever arrives until the peer closes; `false` if it has not closed within `timeout` s.
    public func waitForClose(timeout: Double = 5) -> Bool {
        let deadline = Deadline(seconds: timeout)
        var buf = [UInt8](repeating: 0, count: 65536)
        while true {
            let remaining = deadline.remaining
            if remaining <= 0 { return false }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let rc = poll(&pfd, 1, Int32(max(1, remaining * 1000)))
            if rc < 0 && errno == EINTR { continue }
            if rc <= 0 { continue }
            let n = buf.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { return true }
            if n < 0 && errno != EINTR && errno != EAGAIN { return true }
        }
    }

    /// Sends `line` and a newline.
    public func send(_ line: String) throws {
        var data = Array(line.utf8)
        data.append(UInt8(ascii: "\n"))
        try sendRaw(data)
    }

    /// Sends bytes as they are.
    public func sendRaw(_ data: [UInt8]) throws {
        var offset = 0
        while offset < data.count {
            let n = data[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw TestError("send failed: errno \(errno)")
            }
            offset += n
        }
    }

    /// The next line, or `nil` if none arrives within `timeout` seconds or the peer closed.
    public func readLine(timeout: Double = 5) -> String? {
        let deadline = Deadline(seconds: timeout)
        while true {
            if let nl = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<nl], as: UTF8.self)
                pending.removeSubrange(...nl)
                return line
            }
            let remaining = deadline.remaining
            if remaining <= 0 { return nil }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let rc = poll(&pfd, 1, Int32(max(1, remaining * 1000)))
            if rc < 0 && errno == EINTR { continue }
            if rc <= 0 { return nil }
            var buf = [UInt8](repeating: 0, count: 65536)
            let n = buf.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return nil }
            pending.append(contentsOf: buf[..<n])
        }
    }

    /// Reads lines until one parses as a JSON object with `class` == `cls`; other lines are skipped.
    public func read(class cls: String, timeout: Double = 5) -> [String: Any]? {
        let deadline = Deadline(seconds: timeout)
        while !deadline.hasPassed {
            guard let line = readLine(timeout: deadline.remaining) else { return nil }
            if let object = Self.parse(line), object["class"] as? String == cls { return object }
        }
        return nil
    }

    /// Sends `command` and reads until a reply of class `cls` arrives (other lines, such as frames, are skipped).
    ///
    /// - Returns: the reply, or `nil` if none arrives within `timeout` seconds: callers `#require` it.
    public func request(_ command: String, expecting cls: String, timeout: Double = 5) throws -> [String: Any]? {
        try send(command)
        return read(class: cls, timeout: timeout)
    }

    /// Sends `{"cmd":"status"}` and returns the `status` reply, or `nil` if none arrives within `timeout` seconds.
    public func status(timeout: Double = 5) throws -> [String: Any]? {
        try request(#"{"cmd":"status"}"#, expecting: "status", timeout: timeout)
    }

    /// Every line that arrives before `end` (or until the peer closes).
    public func readLines(until end: Deadline) -> [String] {
        var lines: [String] = []
        while !end.hasPassed, let line = readLine(timeout: end.remaining) {
            lines.append(line)
        }
        return lines
    }

    /// Parses a line as a JSON object.
    public static func parse(_ line: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }
}

/// A failure in test scaffolding.
public struct TestError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) {
        self.description = description
    }
}
