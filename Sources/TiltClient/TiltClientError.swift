#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A client-side failure: what kind it is, so a caller can branch, and a message that says what to do.
///
/// `tilt watch` keeps retrying while the daemon is not running but gives up on a permission problem; `tilt status`
/// prints the message. Catch it and switch over ``kind`` rather than matching the text.
public struct TiltClientError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What went wrong, as far as a caller needs to know to decide what to do next.
    public enum Kind: Sendable, Hashable {
        /// No daemon listens at the path: the socket file is missing (`ENOENT`) or nobody accepts (`ECONNREFUSED`).
        case daemonNotRunning
        /// The socket exists but this user may not connect to it (`EACCES`, `EPERM`).
        case permissionDenied
        /// The daemon did not accept, answer or send within the time allowed.
        case timeout
        /// The daemon closed the connection before the exchange was over.
        case connectionClosed
        /// The daemon answered with an `error` message (the command was refused).
        case refused
        /// The daemon's sensor stopped (finished or lost) while samples were wanted.
        case sensorStopped
        /// The connection could not be set up for another reason: the path is too long, no descriptors are left.
        case unusableSocket
    }

    /// What went wrong.
    public let kind: Kind
    /// What went wrong, where, and what to do about it.
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}

extension TiltClientError {
    /// The failure to connect to `path`, from the `errno` of `connect(2)` (or `socket(2)`).
    ///
    /// The daemon-not-running message keeps the wording `tilt` has always printed: what failed, then how to start
    /// the daemon or name another socket.
    public static func connectFailure(path: String, errno code: Int32, reason: String) -> TiltClientError {
        switch code {
        case ENOENT, ECONNREFUSED:
            return TiltClientError(
                .daemonNotRunning,
                "cannot connect to tiltd at \(path) (\(reason)); is tiltd running? Start it with `tiltd`, or pass "
                    + "--socket PATH")
        case EACCES, EPERM:
            return TiltClientError(
                .permissionDenied,
                "cannot connect to tiltd at \(path) (\(reason)); this user may not use that socket: join the group "
                    + "that owns it (ls -l \(path)), or pass --socket PATH")
        case EAGAIN, ETIMEDOUT:
            return TiltClientError(
                .timeout,
                "cannot connect to tiltd at \(path) (\(reason)); the daemon does not accept connections, it may be "
                    + "overloaded or stuck (tilt status, journalctl -u tiltd)")
        case EMFILE, ENFILE:
            return TiltClientError(
                .unusableSocket, "cannot open a socket (\(reason)); raise the open-file limit (ulimit -n)")
        default:
            return TiltClientError(
                .unusableSocket, "cannot connect to tiltd at \(path) (\(reason)); check the path, or pass --socket PATH"
            )
        }
    }
}
