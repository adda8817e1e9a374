import TiltCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one place a client connects to the daemon's Unix socket.
///
/// ``TiltConnection`` hands the connected descriptor to NIO; `tilt bench daemon` drives many of them from its own
/// `poll(2)` loop. Both get the same errors, sorted by ``TiltClientError/Kind`` from `errno`.
public enum DaemonSocket {
    /// Connects a stream socket to `path`, blocking until the daemon accepts it or `timeout` seconds pass.
    ///
    /// The connect blocks rather than failing when the daemon's listen backlog is full (as a non-blocking Unix
    /// connect would, with `EAGAIN`), so a burst of clients waits its turn; the timeout bounds the wait on a stuck
    /// daemon. The descriptor is close-on-exec and blocking; the caller owns it.
    ///
    /// - Parameters:
    ///   - path: The socket's path (see `SocketPath.resolveForClient` for the default).
    ///   - timeout: Longest wait for the daemon to accept, seconds.
    /// - Returns: The connected descriptor.
    /// - Throws: ``TiltClientError`` whose kind says whether the daemon is not running, the socket is not this
    ///   user's to use, the daemon did not accept in time, or no socket could be made.
    public static func connect(path: String, timeout: Double = 5) throws(TiltClientError) -> Int32 {
        #if canImport(Glibc)
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
            let fd = socket(AF_UNIX, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else {
            let code = errno
            throw .connectFailure(path: path, errno: code, reason: String(cString: strerror(code)))
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(fd)
            throw TiltClientError(
                .unusableSocket,
                "socket path \(path) is too long for a Unix socket (\(bytes.count) bytes; at most "
                    + "\(MemoryLayout.size(ofValue: address.sun_path) - 1)); pass a shorter --socket PATH")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        // A Unix-socket connect waits for room in the backlog for at most the send timeout.
        let seconds = max(timeout, 0.001)
        var limit = timeval(tv_sec: Int(seconds), tv_usec: .init((seconds - seconds.rounded(.down)) * 1e6))
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                #if canImport(Glibc)
                    Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                #else
                    Darwin.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                #endif
            }
        }
        guard rc == 0 else {
            let code = errno
            close(fd)
            throw .connectFailure(path: path, errno: code, reason: String(cString: strerror(code)))
        }
        var none = timeval()
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &none, socklen_t(MemoryLayout<timeval>.size))
        return fd
    }
}
