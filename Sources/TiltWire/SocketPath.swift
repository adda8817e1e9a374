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
        return uid == 0 ? "/run/tiltd/tiltd.sock" : "/tmp/tiltd-\(uid).sock"
    }

    /// The longest path a Unix socket address holds (`sun_path` less its terminating NUL).
    public static let maxLength = 107
}
