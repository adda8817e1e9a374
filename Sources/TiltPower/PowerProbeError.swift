/// Why a power probe could not read something. Probing never stops the daemon: a failed probe reads as "nothing
/// found" and is retried at the next poll.
package struct PowerProbeError: Error, CustomStringConvertible, Sendable, Hashable {
    /// What went wrong with the D-Bus of power-profiles-daemon.
    package enum Kind: Sendable, Hashable {
        /// The bus could not be connected to.
        case unreachable
        /// The bus refused a subscription to profile changes.
        case subscriptionRefused
        /// A connection that worked broke.
        case connectionLost
    }

    /// What went wrong.
    package let kind: Kind
    /// The bus: its D-Bus address, or "the system bus".
    package let address: String
    /// The system's words for the failure (with the step that failed, where it is not the connect).
    package let reason: String

    /// The D-Bus at `address` could not be used, for `reason`.
    init(_ kind: Kind, address: String, reason: String) {
        self.kind = kind
        self.address = address
        self.reason = reason
    }

    package var description: String {
        "cannot follow power-profiles-daemon on \(address): \(reason); "
            + "power profiles are ignored until it answers (check DBUS_SYSTEM_BUS_ADDRESS or --system-bus)"
    }
}
