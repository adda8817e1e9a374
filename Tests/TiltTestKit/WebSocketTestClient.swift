import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A small blocking WebSocket client (RFC 6455) over a TCP socket, with the handshake written by hand, so tests can
/// send what a browser would and what a browser never would (no Origin, a foreign one, oversize messages, floods).
public final class WebSocketTestClient {
    private let fd: Int32
    private var buffer: [UInt8] = []
    /// The handshake's answer: status code, headers (lowercased names) and body when not upgraded.
    public private(set) var status = 0
    /// The body of a refused handshake.
    public private(set) var body = ""
    /// The response headers, names lowercased.
    public private(set) var headers: [String: String] = [:]

    /// A frame received.
    public enum Message: Equatable, Sendable {
        case text(String)
        case close(code: Int, reason: String)
        case other(opcode: Int)
    }

    /// Connects to 127.0.0.1:`port` and sends the handshake for `path` (with its query), with `origin` if given.
    /// After it, ``status`` is 101 when upgraded, else the server's refusal (with ``body``).
    public init(port: Int, path: String, origin: String? = nil, timeout: Double = 10) throws {
        fd = try Self.connect(port: port, timeout: timeout)
        var request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        request += "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        if let origin { request += "Origin: \(origin)\r\n" }
        request += "\r\n"
        try writeAll(Array(request.utf8))
        try readHead()
    }

    deinit { close(fd) }

    /// A plain HTTP GET: status, headers, body.
    public static func get(port: Int, path: String, timeout: Double = 10) throws -> (
        status: Int, headers: [String: String], body: [UInt8]
    ) {
        let fd = try connect(port: port, timeout: timeout)
        defer { close(fd) }
        let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n"
        _ = Array(request.utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = read(fd, &chunk, chunk.count)
            if n <= 0 { break }
            data += chunk[0..<n]
        }
        guard let end = find([13, 10, 13, 10], in: data) else { throw TestError("no HTTP answer to GET \(path)") }
        let (status, headers) = parseHead(String(decoding: data[0..<end], as: UTF8.self))
        return (status, headers, Array(data[(end + 4)...]))
    }

    /// Sends one text message (masked, as a client must), optionally split into `fragments` frames.
    public func send(text: String, fragments: Int = 1) throws {
        let payload = Array(text.utf8)
        let size = max(1, (payload.count + fragments - 1) / fragments)
        var start = 0
        var first = true
        repeat {
            let end = min(payload.count, start + size)
            try writeFrame(opcode: first ? 1 : 0, fin: end == payload.count, payload: Array(payload[start..<end]))
            first = false
            start = end
        } while start < payload.count
    }

    /// Sends a close frame with `code`.
    public func sendClose(code: Int = 1000) throws {
        try writeFrame(opcode: 8, fin: true, payload: [UInt8(code >> 8), UInt8(code & 0xff)])
    }

    /// The next message, or `nil` when the connection ended or `timeout` seconds passed.
    public func receive(timeout: Double = 10) throws -> Message? {
        let deadline = Deadline(seconds: timeout)
        while true {
            if let message = takeFrame() { return message }
            guard try fill(until: deadline) else { return nil }
        }
    }

    /// The next text message (skipping nothing: a close or the end gives `nil`).
    public func receiveText(timeout: Double = 10) throws -> String? {
        if case .text(let text) = try receive(timeout: timeout) { return text }
        return nil
    }

    /// Receives messages until one satisfies `accept` (returned) or `timeout` passes (`nil`).
    public func receive(until accept: (Message) -> Bool, timeout: Double = 10) throws -> Message? {
        let deadline = Deadline(seconds: timeout)
        while !deadline.hasPassed {
            guard let message = try receive(timeout: deadline.remaining) else { return nil }
            if accept(message) { return message }
        }
        return nil
    }

    /// Receives messages until a JSON text message of class `name` (`{"class":name,…}`) arrives; `nil` when none
    /// does within `timeout` seconds or the connection ends.
    public func receive(class name: String, timeout: Double = 10) throws -> [String: Any]? {
        let found = try receive(
            until: { message in
                guard case .text(let text) = message else { return false }
                return Self.object(text)?["class"] as? String == name
            }, timeout: timeout)
        guard case .text(let text) = found else { return nil }
        return Self.object(text)
    }

    /// The JSON object of a text message.
    public static func object(_ text: String?) -> [String: Any]? {
        guard let text, let data = text.data(using: .utf8) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    private func readHead() throws {
        let deadline = Deadline(seconds: 10)
        while find([13, 10, 13, 10], in: buffer) == nil {
            guard try fill(until: deadline) else { throw TestError("the server did not answer the handshake") }
        }
        let end = find([13, 10, 13, 10], in: buffer)!
        (status, headers) = Self.parseHead(String(decoding: buffer[0..<end], as: UTF8.self))
        buffer.removeFirst(end + 4)
        if status != 101 {
            let length = Int(headers["content-length"] ?? "") ?? 0
            while buffer.count < length { guard try fill(until: deadline) else { break } }
            body = String(decoding: buffer.prefix(length), as: UTF8.self)
        }
    }

    private static func parseHead(_ text: String) -> (Int, [String: String]) {
        let lines = text.components(separatedBy: "\r\n")
        let status = Int(lines.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        return (status, headers)
    }

    private func takeFrame() -> Message? {
        guard buffer.count >= 2 else { return nil }
        let opcode = Int(buffer[0] & 0x0f)
        var length = Int(buffer[1] & 0x7f)
        var offset = 2
        if length == 126 {
            guard buffer.count >= 4 else { return nil }
            length = Int(buffer[2]) << 8 | Int(buffer[3])
            offset = 4
        } else if length == 127 {
            guard buffer.count >= 10 else { return nil }
            length = (2..<10).reduce(0) { $0 << 8 | Int(buffer[$1]) }
            offset = 10
        }
        guard buffer.count >= offset + length else { return nil }
        let payload = Array(buffer[offset..<(offset + length)])
        buffer.removeFirst(offset + length)
        switch opcode {
        case 1: return .text(String(decoding: payload, as: UTF8.self))
        case 8:
            let code = payload.count >= 2 ? Int(payload[0]) << 8 | Int(payload[1]) : 1005
            return .close(code: code, reason: String(decoding: payload.dropFirst(2), as: UTF8.self))
        default: return .other(opcode: opcode)
        }
    }

    /// Reads more bytes; `false` at the end of the stream or the deadline.
    private func fill(until deadline: Deadline) throws -> Bool {
        let wait = deadline.remaining
        guard wait > 0 else { return false }
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(wait * 1000) + 1) > 0 else { return false }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = read(fd, &chunk, chunk.count)
        guard n > 0 else { return false }
        buffer += chunk[0..<n]
        return true
    }

    private func writeFrame(opcode: UInt8, fin: Bool, payload: [UInt8]) throws {
        var frame: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else if payload.count <= 0xffff {
            frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xff)]
        } else {
            frame.append(0x80 | 127)
            frame += (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xff) }
        }
        let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        frame += mask
        frame += payload.enumerated().map { $1 ^ mask[$0 % 4] }
        try writeAll(frame)
    }

    private func writeAll(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            // MSG_NOSIGNAL: a server that closed the connection gives EPIPE, not a SIGPIPE that ends the tests.
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw TestError("write to the server failed: \(String(cString: strerror(errno)))") }
            sent += n
        }
    }

    private static func connect(port: Int, timeout: Double) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestError("socket() failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard rc == 0 else {
            close(fd)
            throw TestError("cannot connect to 127.0.0.1:\(port): \(String(cString: strerror(errno)))")
        }
        return fd
    }
}

private func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
    guard haystack.count >= needle.count else { return nil }
    for i in 0...(haystack.count - needle.count) where haystack[i..<(i + needle.count)].elementsEqual(needle) {
        return i
    }
    return nil
}
