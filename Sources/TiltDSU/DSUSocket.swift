import TiltCore
import TiltSensors

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A UDP socket connected to one DSU server: datagrams go to it, and only its datagrams come back (the kernel
/// filters the rest). Used by one thread at a time.
package final class DSUSocket: @unchecked Sendable {
    // Unchecked: the descriptor is used by the reading thread only, and closed once, after it ended.
    package let descriptor: Int32

    /// Resolves `endpoint` and connects a UDP socket to its first address.
    ///
    /// - Throws: ``DSUAddressError`` when the name does not resolve or the socket cannot be made.
    package init(connectingTo endpoint: DSUEndpoint) throws(DSUAddressError) {
        let addresses = try Self.resolve(endpoint)
        var lastError = "no address"
        for (family, address) in addresses {
            let fd = socket(family, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else {
                lastError = String(cString: strerror(errno))
                continue
            }
            let connected = address.withUnsafeBytes { raw in
                Glibc.connect(fd, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count))
            }
            if connected == 0 {
                descriptor = fd
                return
            }
            lastError = String(cString: strerror(errno))
            close(fd)
        }
        throw DSUAddressError(.socket, "cannot open a UDP socket to the DSU server \(endpoint): \(lastError)")
    }

    deinit { close(descriptor) }

    /// The addresses `endpoint` names: each as its family and its `sockaddr` bytes.
    static func resolve(_ endpoint: DSUEndpoint, passive: Bool = false) throws(DSUAddressError)
        -> [(family: Int32, address: [UInt8])]
    {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        hints.ai_flags = passive ? AI_PASSIVE : 0
        var list: UnsafeMutablePointer<addrinfo>?
        let code = getaddrinfo(endpoint.host, String(endpoint.port), &hints, &list)
        guard code == 0, let first = list else {
            let reason = code == 0 ? "no address" : String(cString: gai_strerror(code))
            throw DSUAddressError(.resolve, "cannot resolve the DSU host '\(endpoint.host)': \(reason)")
        }
        defer { freeaddrinfo(list) }
        var found: [(Int32, [UInt8])] = []
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let e = entry {
            if let address = e.pointee.ai_addr {
                let bytes = UnsafeRawBufferPointer(start: address, count: Int(e.pointee.ai_addrlen))
                found.append((e.pointee.ai_family, Array(bytes)))
            }
            entry = e.pointee.ai_next
        }
        return found
    }

    /// Sends one datagram; `false` when the kernel refused it (the server's port is closed, no route).
    @discardableResult
    package func send(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    /// The next datagram, waiting at most `timeoutMs`; `nil` when none came (or the server's port is closed: a
    /// connected UDP socket reports the ICMP answer as `ECONNREFUSED`).
    package func receive(timeoutMs: Int32) -> [UInt8]? {
        var fds = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
        guard poll(&fds, 1, timeoutMs) > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 2048)
        let n = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        guard n >= 0 else { return nil }
        return Array(buffer.prefix(n))
    }
}
