import CSystemd
import FoundationEssentials
import Glibc
import TiltCore

/// The daemon's side of systemd: socket activation and readiness notification (sd-daemon(3)).
///
/// Both do nothing outside systemd: with no `$LISTEN_FDS` for this process there is no passed socket, and with no
/// `$NOTIFY_SOCKET` notifications go nowhere.
enum Systemd {
    /// The first file descriptor systemd passes (`SD_LISTEN_FDS_START`).
    static let firstPassedDescriptor: Int32 = 3

    /// The listening socket systemd passed to this process, if any (`$LISTEN_PID` is this process and
    /// `$LISTEN_FDS` ≥ 1). Unsets those variables, so children do not take it for theirs.
    ///
    /// - Throws: ``DaemonError`` when the passed descriptor is not a listening Unix stream socket.
    static func passedListener() throws(DaemonError) -> Int32? {
        let count = sd_listen_fds(1)
        guard count > 0 else { return nil }
        let fd = firstPassedDescriptor
        guard sd_is_socket_unix(fd, Int32(SOCK_STREAM.rawValue), 1, nil, 0) > 0 else {
            throw DaemonError(
                .systemd,
                "systemd passed file descriptor \(fd), but it is not a listening Unix stream socket; "
                    + "check ListenStream= in tiltd.socket (it must be a socket path)")
        }
        return fd
    }

    /// How many descriptors systemd passed (after ``passedListener()`` the variables are gone; call it first).
    static var passedCount: Int {
        guard let pid = ProcessInfo.processInfo.environment["LISTEN_PID"], Int32(pid) == getpid() else { return 0 }
        return Int(ProcessInfo.processInfo.environment["LISTEN_FDS"] ?? "") ?? 0
    }

    /// Sends `state` (e.g. `READY=1`) to the service manager, if it listens.
    static func notify(_ state: String) {
        guard ProcessInfo.processInfo.environment["NOTIFY_SOCKET"] != nil else { return }
        _ = sd_notify(0, state)
    }

    /// `RELOADING=1` with the monotonic time systemd asks for since version 253.
    static func notifyReloading() {
        let usec = UInt64(monotonicSeconds() * 1_000_000)
        notify("RELOADING=1\nMONOTONIC_USEC=\(usec)")
    }
}
