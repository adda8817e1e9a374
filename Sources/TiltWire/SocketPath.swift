#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the daemon's socket lives, as the daemon and every client resolve it.
public enum SocketPath {
    /// The path to use: `explicit` (from `--socket`) if given, else `$TILTD_SOCKET`, else
    /// `$XDG_RUNTIME_DIR/tiltd.sock`, else `/run/tiltd/tiltd.sock` for root and `/tmp/tiltd-UID.sock` for others.
    public static func resolve(_ explicit: String? = nil, environment: [String: String]? = nil) -> String {
        if let explicit, !explicit.isEmpty { return explicit }
        func env(_ key: String) -> String? {
            if let environment { return environment[key] }
            return getenv(key).map { String(cString: $0) }
        }
        if let s = env("TILTD_SOCKET"), !s.isEmpty { return s }
        if let dir = env("XDG_RUNTIME_DIR"), !dir.isEmpty { return dir + "/tiltd.sock" }
        let uid = getuid()
        return uid == 0 ? system : "/tmp/tiltd-\(uid).sock"
    }

    /// Where the system service's socket is (`dist/tiltd.socket`).
    public static let system = "/run/tiltd/tiltd.sock"

    /// The path a client connects to: as ``resolve(_:environment:)``, except that when neither `explicit` nor
    /// `$TILTD_SOCKET` names a socket and none is at the per-user path, a system service's socket is used if present.
    ///
    /// So `tilt watch` finds a per-user daemon first, and otherwise the one started by `tiltd.socket`, with no flag.
    /// - Parameter isSocket: Whether a socket file exists at a path (tests replace it).
    public static func resolveForClient(
        _ explicit: String? = nil, environment: [String: String]? = nil,
        isSocket: (String) -> Bool = SocketPath.isSocket
    ) -> String {
        let path = resolve(explicit, environment: environment)
        if let explicit, !explicit.isEmpty { return path }
        let named = environment.map { $0["TILTD_SOCKET"] } ?? getenv("TILTD_SOCKET").map { String(cString: $0) }
        if let named, !named.isEmpty { return path }
        if !isSocket(path), isSocket(system) { return system }
        return path
    }

    /// Whether `path` names a Unix socket file.
    public static func isSocket(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        return info.st_mode & S_IFMT == S_IFSOCK
    }

    /// The longest path a Unix socket address holds (`sun_path` less its terminating NUL).
    public static let maxLength = 107
}
