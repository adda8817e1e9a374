import TiltClient
import TiltCore
import TiltWire

/// What can stop `tilt tare`.
package enum TareErrorKind: Sendable, Hashable {
    /// The sensor is lost or finished (a replay that ended): there is no pose now to tare on.
    case noSensor
    /// The sensor was started for the tare but sent no settled frame in time.
    case noFrame
    /// tiltd refused the tare (not allowed) or the connection ended before its answer.
    case refused
}

/// Why `tilt tare` did not tare: its kind and the words for people.
package typealias TareError = TiltError<TareErrorKind>

/// `tilt tare`: re-centres the tilt on the pose the device has *now*.
///
/// Why it watches first: tiltd runs the sensor only while someone watches, and keeps its filters while the sensor
/// is idle; a bare `tare` then re-centred on the pose the device had when the sensor stopped, however it lay since,
/// and `tilt tare` said it had tared. Here the tare is sent on a watching connection once a settled frame
/// (not `initializing`) shows the sensor runs, so it is taken on the pose of that moment; a sensor that is lost or
/// finished has no pose now, and nothing is tared.
package enum LiveTare {
    /// How a tare went.
    package struct Outcome: Sendable, Hashable {
        /// The new reference (device → earth).
        package var reference: Quaternion
        /// The sensor had been idle and was started for the tare.
        package var startedTheSensor: Bool
    }

    /// Whether a tare can be taken with the sensor in `state`, or why not.
    package static func refusal(sensor state: SensorState) -> TareError? {
        switch state {
        case .active, .idle: nil
        case .lost, .finished, .unknown:
            TareError(
                .noSensor,
                "tiltd's sensor is \(state): it fuses no pose now, so there is nothing to tare on (nothing was "
                    + "changed); see `tilt status`, and tare once the sensor is back")
        }
    }

    /// Tares on the current pose through tiltd at `socketPath` (`nil`: the default socket).
    ///
    /// - Parameter timeout: How long to wait for the first settled frame, in seconds.
    /// - Throws: ``TareError``, or the connection's `TiltClientError` (tiltd not running, no permission).
    package static func run(socketPath: String?, timeout: Double = 5) async throws -> Outcome {
        let answer = try await TiltConnection.request(.status, socketPath: socketPath) {
            if case .status = $0 { true } else { false }
        }
        guard case .status(let status) = answer else {
            throw TareError(.refused, "tiltd did not answer `status`; try again")
        }
        if let refusal = refusal(sensor: status.sensor) { throw refusal }
        let subscriber = TiltSubscriber(
            configuration: .init(socketPath: socketPath, rate: WireProtocol.defaultRate, reconnect: false))
        defer { subscriber.close() }
        let result = await withTaskGroup(of: Result<Quaternion, TareError>?.self) { group in
            group.addTask { await tare(through: subscriber) }
            group.addTask {
                try? await Task.sleep(for: .seconds(timeout))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        switch result {
        case .success(let reference): return Outcome(reference: reference, startedTheSensor: status.sensor == .idle)
        case .failure(let error): throw error
        case nil:
            subscriber.close()
            throw TareError(
                .noFrame,
                "tiltd's sensor sent no settled frame within \(Int(timeout)) s of watching, so nothing was tared; "
                    + "see `tilt status` and `tilt watch`")
        }
    }

    /// Watches until a settled frame, then sends `tare` on the same connection and returns its answer.
    private static func tare(through subscriber: TiltSubscriber) async -> Result<Quaternion, TareError>? {
        var sent = false
        for await event in subscriber.events() {
            switch event {
            case .message(.attitude(let frame)) where !sent && !frame.flags.initializing:
                subscriber.send(.tare)
                sent = true
            case .message(.tare(let reference)) where sent:
                return .success(reference)
            case .message(.error(let message)):
                return .failure(TareError(.refused, "tiltd answered: \(message)"))
            case .message(.sensor(let event)) where event.state == .lost || event.state == .finished:
                if let refusal = refusal(sensor: event.state) { return .failure(refusal) }
            case .disconnected(let reason):
                return .failure(TareError(.refused, "tiltd closed the connection before the tare (\(reason))"))
            default:
                break
            }
        }
        return nil
    }
}
