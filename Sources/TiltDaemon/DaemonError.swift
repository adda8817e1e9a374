import TiltCore

/// Why the daemon cannot start or go on: a kind a caller (and a test) can switch on, and the words for people, which
/// say what went wrong and what to do.
public typealias DaemonError = TiltError<DaemonErrorKind>

/// What went wrong.
public enum DaemonErrorKind: Sendable, Hashable {
    /// Settings that exclude each other or lack a part (`loop` without `replay`, …).
    case settings
    /// The sensor source cannot be opened (a log that cannot be replayed, no IIO sensors).
    case source
    /// The socket path is too long, its folder missing, or a file that is not a socket is in the way.
    case socketPath
    /// Another tiltd already serves the socket.
    case socketInUse
    /// The socket cannot be listened on, or given its group (`socket_group`).
    case socket
    /// What systemd passed (socket activation) is not a listening Unix socket.
    case systemd
    /// A group named in the settings does not exist.
    case unknownGroup
    /// `--sensor-proxy`: the D-Bus bus cannot be reached, the name is owned or not allowed, or the bus went away.
    case sensorProxy
}
