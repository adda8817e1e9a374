import TiltWire

/// Where the hub sends one client's lines: the client's socket session, or a recorder in a test.
///
/// The hub knows clients only through this: it never waits on one and knows nothing of how lines travel, so it runs
/// (and is tested) without NIO.
protocol ClientSink: Sendable {
    /// Hands `line` on without waiting.
    ///
    /// - Returns: `false` when the client is not keeping up and the line was dropped (the hub counts dropped frames;
    ///   raw samples are queued, and counted by the session when dropped).
    func deliver(_ line: WireLine, kind: Delivery) -> Bool

    /// Closes the client's connection (at shutdown); returns once it is closed.
    func close() async
}

/// What the hub delivers; only frames are counted (sent or dropped) in `status`.
enum Delivery: Sendable, Equatable {
    /// An `attitude` frame, to a watcher or (`answersPoll`) to a waiting `poll`, which the subscriber confirms
    /// with ``Hub/pollAnswered(id:)`` once the frame is written.
    case frame(answersPoll: Bool)
    /// A raw `sample` taken at sensor time `time`, to a client watching with `raw`: queued by the session while the
    /// client does not read (up to `raw_queue_seconds` of them), never dropped unseen (``RawBacklog``).
    case sample(time: Double)
    /// A `gap` in a replayed log, to a client watching with `raw`: queued in order with the samples.
    case gap
    /// A `sensor` or `power` event, to every client.
    case event
}
