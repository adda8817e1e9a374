import TiltCore
import TiltWire

extension Hub {
    /// One connected client, as the hub tracks it.
    struct Client {
        let sink: any ClientSink
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
        /// The picture axes the client wants its frames in.
        var screenRotation = ScreenRotation.normal
        /// Its attitude choice: `false` 6D, `true` 9D, `nil` the daemon's default.
        var magnetometer: Bool?
        /// How far ahead its frames are predicted, whole milliseconds (0: not predicted).
        var predictMilliseconds = 0

        /// The attitude this client gets, when the main filter gives `main`.
        func reference(main: AttitudeReference) -> AttitudeReference {
            magnetometer == false ? .game : main
        }

        /// Whether the client is owed frames (it watches, or waits for a poll).
        var wantsFrames: Bool { watching || pollPending }
        /// Whether the client's session must stay open for frames: owed some, or one is on its way.
        var expectsFrames: Bool { wantsFrames || pollInFlight }
    }
}
