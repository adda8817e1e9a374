import TiltWire

/// The daemon's limits and access rules: what `SIGHUP` can change while clients stay connected.
///
/// Shared commands (today `tare`; calibration or rate commands later) change what every client sees, so only the
/// daemon's own user, root, and members of ``adminGroup`` may send them. Watching, `poll` and `status` stay open to
/// anyone who can open the socket (its mode 0660 and ``socketGroup`` decide who can).
package struct ServicePolicy: Sendable, Equatable {
    /// Clients served at once; one more gets an `error` line saying the daemon is full, and is closed.
    package var maxClients: Int
    /// The longest command line accepted, in bytes; a longer one gets an `error` and is discarded.
    package var maxLineLength: Int
    /// Commands a client may send per second on average (token bucket, burst twice the rate); `0`: no limit.
    package var commandsPerSecond: Double
    /// Seconds of raw samples (at the rate they arrive: a replay's rate times its speed) queued for a `raw` watcher
    /// that does not read; beyond them samples are dropped, counted and told in a `gap` message.
    package var rawQueueSeconds: Double
    /// The group the socket file is given to (mode 0660); `nil` keeps the daemon's group.
    package var socketGroup: UnixGroup?
    /// Members of this group may send shared commands (`tare`); `nil`: only the daemon's user and root.
    package var adminGroup: UnixGroup?

    /// The defaults: 4096 clients, 64 KiB lines, 20 commands per second.
    package static let defaultMaxClients = 4096
    package static let defaultCommandsPerSecond = 20.0
    /// The default ``rawQueueSeconds``: a reader that stalls for a few seconds (a busy machine, a disk that
    /// hesitates) loses nothing; at 1 kHz it is about 2 MB per raw watcher.
    package static let defaultRawQueueSeconds = 10.0
    /// The range accepted for ``rawQueueSeconds`` (`0`: nothing queued beyond the socket's buffers).
    package static let rawQueueRange = 0.0...600
    /// The range accepted for ``maxClients``.
    package static let maxClientsRange = 1...1_000_000
    /// The range accepted for ``maxLineLength``: the wire protocol's own cap is the most.
    package static let lineLengthRange = 64...WireProtocol.maxLineLength
    /// The range accepted for ``commandsPerSecond`` (`0`: no limit).
    package static let commandRateRange = 0.0...100_000

    package init(
        maxClients: Int = ServicePolicy.defaultMaxClients, maxLineLength: Int = WireProtocol.maxLineLength,
        commandsPerSecond: Double = ServicePolicy.defaultCommandsPerSecond,
        rawQueueSeconds: Double = ServicePolicy.defaultRawQueueSeconds, socketGroup: UnixGroup? = nil,
        adminGroup: UnixGroup? = nil
    ) {
        self.rawQueueSeconds = rawQueueSeconds
        self.maxClients = maxClients
        self.maxLineLength = maxLineLength
        self.commandsPerSecond = commandsPerSecond
        self.socketGroup = socketGroup
        self.adminGroup = adminGroup
    }

    /// Commands a client may send at once after a quiet spell.
    package var commandBurst: Double { commandsPerSecond * 2 }

    /// Refused commands in a row after which a flooding client is disconnected.
    package var floodLimit: Int { max(20, Int(commandBurst.rounded(.up)) * 2) }

    /// Why `peer` may not send the shared command `command`, or `nil` when it may.
    ///
    /// - Parameters:
    ///   - peer: The client's credentials; unknown credentials are refused.
    ///   - groups: Every group the client's process belongs to; looked up only when the uid alone does not decide
    ///     and an admin group is configured (the lookup may go through NSS).
    ///   - daemonUID: The daemon's own uid.
    /// - Returns: A message for the client saying why and what to do.
    func refusal(
        command: String, peer: PeerCredentials?, groups: @autoclosure () -> Set<UInt32>, daemonUID: Int
    ) -> String? {
        guard let peer else {
            return "\(command) refused: the daemon cannot tell who is connected (no SO_PEERCRED); "
                + "connect over the local Unix socket"
        }
        if peer.uid == daemonUID || peer.uid == 0 { return nil }
        if let adminGroup, groups().contains(adminGroup.gid) { return nil }
        let owner = daemonUID == 0 ? "is not the daemon's uid 0" : "is neither the daemon's uid \(daemonUID) nor root"
        let runAs = daemonUID == 0 ? "as root" : "as uid \(daemonUID) or root"
        guard let adminGroup else {
            return "\(command) refused: uid \(peer.uid) \(owner) and no admin_group is configured; "
                + "set admin_group in the daemon's config file and add the user to it, or run \(runAs)"
        }
        return "\(command) refused: uid \(peer.uid) \(owner) and not in admin group '\(adminGroup.name)'; "
            + "add the user to that group (usermod -aG \(adminGroup.name) USER, then log in again) or run \(runAs)"
    }
}
