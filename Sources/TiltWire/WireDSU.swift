/// `status.dsu`: tiltd's DSU server (`--dsu-server`, issue 31), when it runs.
public struct WireDSU: Sendable, Equatable, Codable {
    /// The UDP address it listens on, `ADDRESS:PORT`.
    public var listen: String
    /// Clients subscribed now (asked for data in the last 5 s).
    public var subscribers: Int
    /// Data packets sent, to all subscribers together.
    public var sent: UInt64
    /// Datagrams received and answered or acted on.
    public var received: UInt64
    /// Datagrams refused, by reason: `truncated`, `badMagic`, `version`, `crc`, `unknownType`, `malformed` (what
    /// `DSUErrorKind` names), `rateLimited` (over the per-address limit), `full` (a new subscriber beyond the
    /// limit). A reason that never happened is left out.
    public var dropped: [String: UInt64]

    public init(listen: String, subscribers: Int, sent: UInt64, received: UInt64, dropped: [String: UInt64]) {
        self.listen = listen
        self.subscribers = subscribers
        self.sent = sent
        self.received = received
        self.dropped = dropped
    }

    func write(into w: inout JSONWriter) {
        w.object("dropped") { d in
            for (reason, count) in dropped.sorted(by: { $0.key < $1.key }) { d.field(reason, count) }
        }
        w.field("listen", listen)
        w.field("received", received)
        w.field("sent", sent)
        w.field("subscribers", subscribers)
    }
}
