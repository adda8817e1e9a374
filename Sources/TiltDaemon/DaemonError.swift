import TiltCore

/// Why the daemon cannot start or go on: a kind a caller (and a test) can switch on, and the words for people, which
/// say what went wrong and what to do.
package typealias DaemonError = TiltError<DaemonErrorKind>

/// What went wrong.
///
/// - `settings`: settings that exclude each other or lack a part (`loop` without `replay`, …)
/// - `source`: the sensor source cannot be opened (a log that cannot be replayed, no IIO sensors)
/// - `socketPath`: the socket path is too long, its folder missing, or a file that is not a socket is in the way
/// - `socketInUse`: another tiltd already serves the socket
/// - `socket`: the socket cannot be listened on, or given its group (`socket_group`)
/// - `systemd`: what systemd passed (socket activation) is not a listening Unix socket
/// - `unknownGroup`: a group named in the settings does not exist
/// - `sensorProxy`: `--sensor-proxy`: the D-Bus bus cannot be reached, the name is owned or not allowed, or the bus
///   went away
/// - `dsu`: `--dsu-server`: the UDP address cannot be bound (in use, not this machine's, privileged)
package enum DaemonErrorKind: Sendable, Hashable {
    case settings, source, socketPath, socketInUse, socket, systemd, unknownGroup, sensorProxy, dsu
}
