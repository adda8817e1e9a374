import Synchronization

/// The policy in force, shared by every connection and replaced as a whole on `SIGHUP`.
///
/// Connections read it per command, so a reload applies at once to clients already connected (rate limit, admin
/// group) and to new ones (client limit, line length).
final class DaemonSettings: Sendable {
    private let state: Mutex<ServicePolicy>
    /// The daemon's own uid: it may always send shared commands.
    let daemonUID: Int

    init(policy: ServicePolicy, daemonUID: Int) {
        state = Mutex(policy)
        self.daemonUID = daemonUID
    }

    /// The policy now.
    var policy: ServicePolicy { state.withLock { $0 } }

    /// Puts `policy` in force from the next command or connection on.
    func replace(_ policy: ServicePolicy) {
        state.withLock { $0 = policy }
    }
}
