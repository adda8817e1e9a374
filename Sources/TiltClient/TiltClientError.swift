import TiltCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A client-side failure: what kind it is, so a caller can branch, and a message that says what to do.
///
/// `tilt watch` keeps retrying while the daemon is not running but gives up on a permission problem; `tilt status`
/// prints the message. Catch it and switch over ``kind`` rather than matching the text.
public typealias TiltClientError = TiltError<TiltClientErrorKind>

/// What went wrong, as far as a caller needs to know to decide what to do next.
///
/// - `daemonNotRunning`: no daemon listens at the path: the socket file is missing (`ENOENT`) or nobody accepts
///   (`ECONNREFUSED`)
/// - `permissionDenied`: the socket exists but this user may not connect to it (`EACCES`, `EPERM`)
/// - `timeout`: the daemon did not accept, answer or send within the time allowed
/// - `connectionClosed`: the daemon closed the connection before the exchange was over
/// - `refused`: the daemon answered with an `error` message (the command was refused)
/// - `sensorStopped`: the daemon's sensor stopped (finished or lost) while samples were wanted
/// - `unusableSocket`: the connection could not be set up for another reason: the path is too long, no descriptors are
///   left
public enum TiltClientErrorKind: Sendable, Hashable {
    case daemonNotRunning, permissionDenied, timeout, connectionClosed, refused, sensorStopped, unusableSocket
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
