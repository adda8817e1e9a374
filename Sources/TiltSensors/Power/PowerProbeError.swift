/// Why a power probe could not read something. Probing never stops the daemon: a failed probe reads as "nothing
/// found" and is retried at the next poll.
public struct PowerProbeError: Error, CustomStringConvertible, Sendable {
    private enum Kind: Sendable {
        case bus(String, String)
    }

    private let kind: Kind

    /// D-Bus at `address` could not be used.
    static func bus(_ address: String, _ reason: String) -> PowerProbeError { .init(kind: .bus(address, reason)) }

    public var description: String {
        switch kind {
        case .bus(let address, let reason):
            return "cannot follow power-profiles-daemon on \(address): \(reason); "
                + "power profiles are ignored until it answers (check DBUS_SYSTEM_BUS_ADDRESS or --system-bus)"
        }
    }
}
