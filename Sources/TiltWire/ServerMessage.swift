import FoundationEssentials
import TiltCore

/// A message from the daemon to a client, one JSON object per line with a `class` key.
///
/// One case per ``MessageClass``, each carrying the message's own type (a ``WireMessage``), which writes and reads
/// it: the two switches below (``payload`` and the dispatch of ``decode(_:)``) are all this enum adds.
public enum ServerMessage: Sendable, Equatable {
    /// Sent once on connect.
    case hello(Hello)
    /// One fused frame.
    ///
    /// Besides the fields of protocol v1 (docs/protocol.md), a frame may carry `"mono"` (after `"time"`): the daemon's
    /// `CLOCK_MONOTONIC` seconds when the underlying sample entered it (``AttitudeFrame/mono``). It is optional, as
    /// added fields are in v1; a client on the same machine subtracts it from its own monotonic receive time to
    /// measure sample-to-client latency (`tilt bench daemon` does).
    case attitude(AttitudeFrame)
    /// One raw sample (to clients that asked for `raw`), as fused, after calibration.
    case sample(MotionSample)
    /// Raw samples this client was not sent (its queue was full): how many, and the sensor times of the first and
    /// last of them. It comes where they would have been, between the samples before and after them.
    case gap(Gap)
    /// The power state changed (also in `hello`).
    case power(PowerState)
    /// The sensor changed state.
    case sensor(SensorEvent)
    /// The device's orientation or tilt changed (issue 16), sent to every client.
    case orientation(WireOrientation)
    /// The answer to `status`.
    case status(StatusReport)
    /// The answer to `tare`: the new reference pose.
    case tare(reference: Quaternion)
    /// A complaint about the client's last line; the connection stays open.
    case error(message: String)

    /// The greeting.
    public struct Hello: WireMessage, Codable {
        public var `protocol`: Int
        public var daemon: String
        public var sensors: [WireSensor]
        public var power: WirePower
        /// The sensor's state when the client connected, as in `sensor` events (`nil` from older daemons): a client
        /// of a replay that has `finished` knows at once that no sample will come.
        public var sensor: SensorState?
        public init(
            protocol: Int, daemon: String, sensors: [WireSensor], power: WirePower, sensor: SensorState? = nil
        ) {
            self.protocol = `protocol`
            self.daemon = daemon
            self.sensors = sensors
            self.power = power
            self.sensor = sensor
        }
    }

    /// A `gap`: raw samples a `raw` watcher was not sent, because more piled up unread than its queue holds.
    public struct Gap: WireMessage, Codable {
        /// Samples not sent.
        public var count: Int
        /// The sensor time (`t`) of the first and of the last sample not sent.
        public var first, last: Double
        public init(count: Int, first: Double, last: Double) {
            self.count = count
            self.first = first
            self.last = last
        }

        /// The gap as the log and the filter see it.
        public var sampleGap: SampleGap { SampleGap(count: count, first: first, last: last) }
    }

    /// A `sensor` event.
    public struct SensorEvent: WireMessage, Codable {
        /// What the sensor does now; a state this version does not know decodes as ``SensorState/unknown(_:)``.
        public var state: SensorState
        public var reason: String
        public init(state: SensorState, reason: String) {
            self.state = state
            self.reason = reason
        }
    }

    /// The message as its own type, which writes it (``WireMessage``).
    public var payload: any WireMessage {
        switch self {
        case .hello(let m): m
        case .attitude(let m): m
        case .sample(let m): m
        case .gap(let m): m
        case .power(let m): m
        case .sensor(let m): m
        case .orientation(let m): m
        case .status(let m): m
        case .tare(let reference): TareAnswer(reference: reference)
        case .error(let message): WireError(.reported, message)
        }
    }

    /// The message of class `messageClass` in `line`, read by its type (``decode(_:)`` reads the class first).
    static func decode(_ messageClass: MessageClass, line: Data, using decoder: JSONDecoder) throws
        -> ServerMessage
    {
        switch messageClass {
        case .hello: .hello(try .decode(line: line, using: decoder))
        case .attitude: .attitude(try .decode(line: line, using: decoder))
        case .sample: .sample(try .decode(line: line, using: decoder))
        case .gap: .gap(try .decode(line: line, using: decoder))
        case .power: .power(try .decode(line: line, using: decoder))
        case .sensor: .sensor(try .decode(line: line, using: decoder))
        case .orientation: .orientation(try .decode(line: line, using: decoder))
        case .status: .status(try .decode(line: line, using: decoder))
        case .tare: .tare(reference: try TareAnswer.decode(line: line, using: decoder).reference)
        case .error: .error(message: try WireError.decode(line: line, using: decoder).message)
        }
    }

    /// The message's `class`.
    public var messageClass: MessageClass { type(of: payload).messageClass }

    /// The JSON line for this message, without the newline.
    public var jsonLine: String { payload.jsonLine }

    /// Encodes a frame: the daemon's hot path, without going through ``payload``.
    public static func encode(frame f: AttitudeFrame) -> String { f.jsonLine }
}

extension ServerMessage.Hello {
    public static var messageClass: MessageClass { .hello }

    public func writeFields(into w: inout JSONWriter) {
        w.field("protocol", `protocol`)
        w.field("daemon", daemon)
        w.array("sensors", objects: sensors) { $1.write(into: &$0) }
        w.object("power") { power.write(into: &$0) }
        if let sensor { w.field("sensor", sensor) }
    }
}

extension ServerMessage.Gap {
    public static var messageClass: MessageClass { .gap }

    public func writeFields(into w: inout JSONWriter) {
        w.field("count", count)
        w.field("first", first)
        w.field("last", last)
    }
}

extension ServerMessage.SensorEvent {
    public static var messageClass: MessageClass { .sensor }

    public func writeFields(into w: inout JSONWriter) {
        w.field("state", state)
        w.field("reason", reason)
    }
}
