import NIOCore

#if canImport(Glibc)
    import Glibc
#endif

/// The connecting process's credentials, from `SO_PEERCRED` on a Unix socket (Linux).
struct PeerCredentials: Sendable, Equatable {
    var uid: Int
    var gid: Int
    var pid: Int

    /// Asks the kernel who is on the other end of `channel`; calls `completion` with the answer, or `nil` where
    /// the platform or the channel cannot say. On the channel's event loop the answer comes before this returns.
    /// `struct ucred` from <sys/socket.h> (pid_t, uid_t, gid_t), which Glibc only exports with _GNU_SOURCE.
    private struct RawCredentials: Sendable {
        var pid: Int32 = 0
        var uid: UInt32 = 0
        var gid: UInt32 = 0
    }

    static func read(channel: any Channel, completion: @escaping @Sendable (PeerCredentials?) -> Void) {
        #if os(Linux)
            guard let provider = channel as? any SocketOptionProvider else {
                completion(nil)
                return
            }
            let future: EventLoopFuture<RawCredentials> = provider.unsafeGetSocketOption(
                level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED))
            future.whenComplete { result in
                switch result {
                case .success(let cred):
                    completion(PeerCredentials(uid: Int(cred.uid), gid: Int(cred.gid), pid: Int(cred.pid)))
                case .failure:
                    completion(nil)
                }
            }
        #else
            completion(nil)
        #endif
    }
}
