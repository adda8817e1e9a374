import TiltCore
import TiltWire

/// The dispatch part of a session: what each ``ClientCommand`` does to the hub, and what the client gets back.
///
/// It knows nothing of sockets: the session passes it a command and the client's identity and writes what it
/// returns.
struct CommandDispatcher: Sendable {
    let hub: Hub
    let settings: DaemonSettings

    /// The result of a command.
    enum Outcome: Sendable, Equatable {
        /// Answer with this message.
        case reply(ServerMessage)
        /// Nothing to answer now (`watch`; a `poll` whose frame comes with the next sample).
        case none
        /// A shared command the peer may not send: answer with an `error` saying why.
        case refused(command: String, message: String)
        /// `tare` (or its reset) done: the new reference (the identity when there was no attitude yet).
        case tared(reference: Quaternion, hadAttitude: Bool)
    }

    /// Runs `command` for client `id`.
    ///
    /// - Parameters:
    ///   - authority: Who the client is (a shared command looks the peer's groups up once).
    ///   - errors: The client's error count so far, for `status`.
    func dispatch(_ command: ClientCommand, id: UInt64, authority: inout CommandAuthority, errors: UInt64)
        -> Outcome
    {
        switch command {
        case .watch(let enable, let rate, let raw, let rotation, let magnetometer, let predict):
            if let refusal = hub.setWatch(
                id: id, enable: enable, rate: rate, raw: raw, rotation: rotation, magnetometer: magnetometer,
                predict: predict)
            {
                return .refused(command: "watch", message: refusal)
            }
            // A source that has ended sent its `sensor` event before this client watched: say it again, or the
            // client would wait for samples that never come.
            if enable, let ended = hub.endedSensorEvent() { return .reply(ended) }
            return .none
        case .poll:
            return hub.poll(id: id).map { .reply(.attitude($0)) } ?? .none
        case .status:
            return .reply(.status(hub.status(id: id, errors: errors, peer: authority.peer)))
        case .tare, .resetTare:
            if let refusal = authority.refusal(of: "tare", settings: settings) {
                return .refused(command: "tare", message: refusal)
            }
            let reference = command == .resetTare ? hub.resetTare() : hub.tare()
            return .tared(reference: reference ?? .identity, hadAttitude: reference != nil)
        }
    }
}
