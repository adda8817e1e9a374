import FoundationEssentials
import TiltCore
import TiltWire

#if canImport(Glibc)
    import Glibc

    /// Many watching daemon clients in one process, for load tests (`tilt bench daemon`): non-blocking Unix sockets
    /// served by one `poll(2)` loop, no thread each.
    ///
    /// Each client's lines are split as they arrive; `attitude` frames are counted and their latency taken as this
    /// process's `CLOCK_MONOTONIC` receive time minus the frame's `mono` field. Of the other lines only `status` answers
    /// are read, for the frames the daemon dropped for that client. Frame lines are not decoded: at a thousand clients
    /// the pool, not the daemon, would set the latency.
    ///
    /// Not `Sendable`: one task drives a pool from start to end.
    public final class WatcherPool {
        /// One connection and what it received.
        public struct Client: Sendable {
            /// The socket.
            public internal(set) var fd: Int32
            var pending: [UInt8] = []
            /// Frames received while measuring.
            public internal(set) var frames = 0
            /// Whether any frame arrived, measuring or not.
            public internal(set) var seen = false
            /// The frames the daemon dropped for this client, from its latest `status` answer.
            public internal(set) var dropped: Int?
            /// Whether the connection is still open.
            public internal(set) var open = true
        }

        /// The connections, in the order they were made.
        public private(set) var clients: [Client] = []
        /// Frame latencies in seconds, while ``measuring`` is on.
        public private(set) var latencies: [Double] = []
        /// Whether frames count and their latencies are kept.
        public var measuring = false
        private var buffer = [UInt8](repeating: 0, count: 1 << 16)

        public init() {}

        /// Connects `count` clients to `path` (blocking connects, so a full listen backlog waits rather than fails).
        ///
        /// - Throws: ``TiltClientError`` saying why a connection failed (e.g. too few open files allowed).
        public func connect(count: Int, path: String) throws {
            clients.reserveCapacity(clients.count + count)
            for _ in 0..<count {
                let fd = try DaemonSocket.connect(path: path)
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                clients.append(Client(fd: fd))
            }
        }

        /// Sends `command` (encoded once) to every open client.
        public func sendAll(_ command: ClientCommand) {
            let bytes = command.lineBytes
            for i in clients.indices where clients[i].open {
                if !Self.sendAllBytes(clients[i].fd, bytes) { closeClient(i) }
            }
        }

        /// Writes all of `bytes` to a non-blocking socket, waiting for room if needed; `false` if the peer is gone.
        public static func sendAllBytes(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
            var offset = 0
            while offset < bytes.count {
                let n = bytes[offset...].withUnsafeBytes {
                    Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                }
                if n > 0 {
                    offset += n
                } else if n < 0 && (errno == EAGAIN || errno == EINTR) {
                    var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&p, 1, 100)
                } else {
                    return false
                }
            }
            return true
        }

        /// Serves every open client until `deadline` (monotonic seconds) or until `done` holds.
        public func run(until deadline: Double, done: (WatcherPool) -> Bool = { _ in false }) {
            var fds = clients.map { pollfd(fd: $0.open ? $0.fd : -1, events: Int16(POLLIN), revents: 0) }
            while monotonicSeconds() < deadline, !done(self) {
                let wait = Int32(max(1, min(50, (deadline - monotonicSeconds()) * 1000)))
                let ready = poll(&fds, nfds_t(fds.count), wait)
                if ready <= 0 { continue }
                for i in fds.indices where fds[i].revents != 0 {
                    fds[i].revents = 0
                    if !read(i) { fds[i].fd = -1 }
                }
            }
        }

        /// Reads what client `i` has; `false` once it is closed.
        private func read(_ i: Int) -> Bool {
            while true {
                let n = buffer.withUnsafeMutableBytes { recv(clients[i].fd, $0.baseAddress, $0.count, 0) }
                if n > 0 {
                    take(buffer[..<n], client: i)
                    if n < buffer.count { return true }
                } else if n < 0 && (errno == EAGAIN || errno == EINTR) {
                    return true
                } else {
                    closeClient(i)
                    return false
                }
            }
        }

        private func take(_ bytes: ArraySlice<UInt8>, client i: Int) {
            let now = monotonicSeconds()
            var start = bytes.startIndex
            while let nl = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
                if clients[i].pending.isEmpty {
                    line(bytes[start..<nl], client: i, at: now)
                } else {
                    var whole = [UInt8]()
                    swap(&whole, &clients[i].pending)
                    whole += bytes[start..<nl]
                    line(whole[...], client: i, at: now)
                }
                start = nl + 1
            }
            clients[i].pending += bytes[start...]
        }

        private static let framePrefix = MessageClass.attitude.linePrefix
        private static let statusPrefix = MessageClass.status.linePrefix
        private static let monoKey = Array(#""mono":"#.utf8)

        private func line(_ line: ArraySlice<UInt8>, client i: Int, at now: Double) {
            if line.starts(with: Self.framePrefix) {
                clients[i].seen = true
                guard measuring else { return }
                clients[i].frames += 1
                if let mono = Self.number(after: Self.monoKey, in: line) { latencies.append(now - mono) }
            } else if line.starts(with: Self.statusPrefix) {
                guard case .status(let report) = try? ServerMessage.decode(line) else { return }
                clients[i].dropped = Int(clamping: report.client.dropped)
            }
        }

        /// The number after `key` in `line`, read with `strtod`: the client's hot path, so plain byte loops.
        private static func number(after key: [UInt8], in line: ArraySlice<UInt8>) -> Double? {
            line.withUnsafeBytes { raw -> Double? in
                guard let found = firstOffset(of: key, in: raw) else { return nil }
                let start = found + key.count
                var text = (
                    CChar(0), CChar(0), CChar(0), CChar(0), CChar(0), CChar(0), CChar(0), CChar(0),
                    CChar(0), CChar(0), CChar(0), CChar(0), CChar(0), CChar(0), CChar(0), CChar(0),
                    CChar(0), CChar(0), CChar(0), CChar(0), CChar(0), CChar(0), CChar(0), CChar(0),
                    CChar(0), CChar(0), CChar(0), CChar(0), CChar(0), CChar(0), CChar(0), CChar(0)
                )
                return withUnsafeMutableBytes(of: &text) { out -> Double in
                    var n = 0
                    while n < out.count - 1, start + n < raw.count {
                        let byte = raw[start + n]
                        if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") { break }
                        out[n] = byte
                        n += 1
                    }
                    return strtod(out.baseAddress!.assumingMemoryBound(to: CChar.self), nil)
                }
            }
        }

        /// The offset of the first occurrence of `key` in `raw`.
        private static func firstOffset(of key: [UInt8], in raw: UnsafeRawBufferPointer) -> Int? {
            guard let first = key.first, raw.count >= key.count else { return nil }
            var i = 0
            while i <= raw.count - key.count {
                if raw[i] == first {
                    var j = 1
                    while j < key.count && raw[i + j] == key[j] { j += 1 }
                    if j == key.count { return i }
                }
                i += 1
            }
            return nil
        }

        /// Closes client `i`.
        public func closeClient(_ i: Int) {
            guard clients[i].open else { return }
            close(clients[i].fd)
            clients[i].open = false
        }

        /// Closes every client.
        public func closeAll() {
            for i in clients.indices { closeClient(i) }
        }

        /// Forgets every client (after ``closeAll()``), so the object can serve a new set.
        public func reset() {
            closeAll()
            clients.removeAll()
            latencies.removeAll()
        }

        /// Clients that have seen at least one frame.
        public var clientsWithFrames: Int { clients.lazy.filter { $0.seen }.count }

        deinit { closeAll() }
    }
#endif
