/// The authorisation part of a session: who the peer is, and whether it may send a shared command.
///
/// The rule itself is ``ServicePolicy/refusal(command:peer:groups:daemonUID:)``; this keeps the peer's credentials
/// and looks its groups up at most once, at its first shared command (not at connect: NSS can be slow).
struct CommandAuthority: Sendable {
    /// The peer's credentials, once the socket has given them.
    var peer: PeerCredentials?
    private var peerGroups: Set<UInt32>?
    /// How groups are looked up (tests replace it).
    private let lookUpGroups: @Sendable (PeerCredentials) -> Set<UInt32>

    init(
        lookUpGroups: @escaping @Sendable (PeerCredentials) -> Set<UInt32> = {
            UnixGroup.groups(ofProcess: $0.pid, uid: $0.uid, gid: $0.gid)
        }
    ) {
        self.lookUpGroups = lookUpGroups
    }

    /// Why the peer may not send the shared command `command` under `settings`, or `nil` when it may.
    mutating func refusal(of command: String, settings: DaemonSettings) -> String? {
        settings.policy.refusal(command: command, peer: peer, groups: groups(), daemonUID: settings.daemonUID)
    }

    /// The peer's uid for logs, `?` when unknown.
    var uid: String { peer.map { "\($0.uid)" } ?? "?" }

    /// The peer's pid for logs, `?` when unknown.
    var pid: String { peer.map { "\($0.pid)" } ?? "?" }

    private mutating func groups() -> Set<UInt32> {
        if let peerGroups { return peerGroups }
        guard let peer else { return [] }
        let groups = lookUpGroups(peer)
        peerGroups = groups
        return groups
    }
}
