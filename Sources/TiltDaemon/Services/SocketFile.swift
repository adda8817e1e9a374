import FoundationEssentials
import TiltCore
import TiltWire

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Prepares and cleans up the daemon's socket path.
enum SocketFile {
    /// Makes `path` free to bind: removes a stale socket left by a daemon that died, and refuses to take over one
    /// where a live daemon answers, or a path that is not a socket.
    ///
    /// - Throws: ``DaemonError`` saying what is there and what to do.
    static func prepare(_ path: String) throws(DaemonError) {
        guard path.utf8.count <= SocketPath.maxLength else {
            throw DaemonError(
                .socketPath,
                "the socket path is \(path.utf8.count) bytes long, over the \(SocketPath.maxLength)-byte limit of Unix sockets: \(path); choose a shorter --socket"
            )
        }
        guard let node = FileNode(lstat: path) else {
            // Nothing there. Make sure the folder exists.
            let dir = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
            // Root's default socket folder lives in /run, a tmpfs emptied at boot: without systemd's
            // RuntimeDirectory= (tiltd started by hand, without XDG_RUNTIME_DIR) tiltd makes it, as systemd would.
            if path == SocketPath.system, access(dir, F_OK) != 0 {
                if mkdir(dir, 0o755) != 0 && errno != EEXIST {
                    throw DaemonError(
                        .socketPath,
                        "cannot create the socket's folder \(dir) (\(String(cString: strerror(errno)))); create it "
                            + "(mkdir -p \(dir)) or choose another --socket")
                }
            }
            if !dir.isEmpty, access(dir, F_OK) != 0 {
                throw DaemonError(
                    .socketPath,
                    "cannot create the socket \(path): the folder \(dir) does not exist; create it (mkdir -p \(dir)) or "
                        + "choose another --socket")
            }
            if !dir.isEmpty, access(dir, W_OK) != 0 {
                throw DaemonError(
                    .socketPath,
                    "cannot create the socket in \(dir) (\(String(cString: strerror(errno)))); create the folder or choose another --socket"
                )
            }
            return
        }
        guard node.isSocket else {
            throw DaemonError(.socketPath, "\(path) exists and is not a socket; remove it or choose another --socket")
        }
        if isLive(path) {
            throw DaemonError(
                .socketInUse,
                "another tiltd is already serving \(path); stop it first, or start this one with another --socket")
        }
        guard unlink(path) == 0 else {
            throw DaemonError(
                .socketPath,
                "cannot remove the stale socket \(path) (\(String(cString: strerror(errno)))); remove it by hand")
        }
    }

    /// Whether something accepts connections on the socket at `path`.
    static func isLive(_ path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
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
        return rc == 0
    }

    /// The identity of the file at `path` (device, inode), to remove only our own socket at shutdown.
    static func identity(_ path: String) -> (UInt64, UInt64)? {
        FileNode(lstat: path).map { ($0.device, $0.inode) }
    }

    /// Gives the socket file at `path` to `group` (its mode stays 0660, so the group's members may connect).
    ///
    /// - Throws: ``DaemonError`` when the daemon may not (it must be root, or a member of the group).
    static func setGroup(_ path: String, group: UnixGroup) throws(DaemonError) {
        guard chown(path, uid_t.max, gid_t(group.gid)) == 0 else {
            let reason = String(cString: strerror(errno))
            throw DaemonError(
                .socket,
                "cannot give the socket \(path) to socket_group \(group) (\(reason)); run tiltd as root or as a "
                    + "member of that group, or choose another socket_group")
        }
    }

    /// Removes the socket at `path` if it is still the one we created.
    static func remove(_ path: String, ifIdentity identity: (UInt64, UInt64)?) {
        guard let identity, let now = Self.identity(path), now == identity else { return }
        unlink(path)
    }
}
