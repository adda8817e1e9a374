import TiltWire

extension Hub {
    /// One connected client, as the hub tracks it.
    struct Client {
        let sink: any Subscriber
        var watching = false
        var raw = false
        var rate: Double?
        var schedule = RateSchedule(rate: WireProtocol.defaultRate)
        var pollPending = false
        /// A frame answering a poll is on its way to the client (handed over, not yet written).
        var pollInFlight = false
        /// Frames handed to the client, and frames dropped because it was not keeping up.
        var sent: UInt64 = 0
        var dropped: UInt64 = 0

        /// Whether the client is owed frames (it watches, or waits for a poll).
        var wantsFrames: Bool { watching || pollPending }
        /// Whether the client's session must stay open for frames: owed some, or one is on its way.
        var expectsFrames: Bool { wantsFrames || pollInFlight }
    }
}
