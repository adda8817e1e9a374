import TiltCore

/// A message from the daemon to a client, one JSON object per line with a `class` key.
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
    public struct Hello: Sendable, Equatable, Codable {
        public var `protocol`: Int
        public var daemon: String
        public var sensors: [WireSensor]
        public var power: WirePower
        public init(protocol: Int, daemon: String, sensors: [WireSensor], power: WirePower) {
            self.protocol = `protocol`
            self.daemon = daemon
            self.sensors = sensors
            self.power = power
        }
    }

    /// A `sensor` event.
    public struct SensorEvent: Sendable, Equatable, Codable {
        /// What the sensor does now; a state this version does not know decodes as ``SensorState/unknown(_:)``.
        public var state: SensorState
        public var reason: String
        public init(state: SensorState, reason: String) {
            self.state = state
            self.reason = reason
        }
    }

    /// The JSON line for this message, without the newline.
    public var jsonLine: String {
        var w = JSONWriter()
        switch self {
        case .hello(let h):
            w.field("class", "hello")
            w.field("protocol", h.protocol)
            w.field("daemon", h.daemon)
            w.array("sensors", objects: h.sensors) { $1.write(into: &$0) }
            w.object("power") { h.power.write(into: &$0) }
            return w.finish()
        case .attitude(let f):
            return Self.encode(frame: f)
        case .sample(let s):
            w.field("class", "sample")
            w.field("t", s.time)
            w.field("gyr", s.gyro.array)
            w.field("acc", s.accel.array)
            if let m = s.mag { w.field("mag", m.array) } else { w.null("mag") }
            return w.finish()
        case .power(let p):
            w.field("class", "power")
            WirePower(p).write(into: &w)
            return w.finish()
        case .sensor(let e):
            w.field("class", "sensor")
            w.field("state", e.state)
            w.field("reason", e.reason)
            return w.finish()
        case .orientation(let o):
            w.field("class", "orientation")
            o.write(into: &w)
            return w.finish()
        case .status(let s):
            return s.jsonLine
        case .tare(let q):
            w.field("class", "tare")
            w.field("reference", q.array)
            return w.finish()
        case .error(let message):
            w.field("class", "error")
            w.field("message", message)
            return w.finish()
        }
    }

    /// Encodes a frame: the daemon's hot path, written without Codable.
    public static func encode(frame f: AttitudeFrame) -> String {
        var w = JSONWriter()
        w.field("class", "attitude")
        w.field("seq", f.seq)
        w.field("time", f.time)
        if let mono = f.mono { w.field("mono", mono) }
        w.field("quaternion", f.quaternion.array)
        let e = f.euler
        w.object("euler") {
            $0.field("roll", e.roll)
            $0.field("pitch", e.pitch)
            $0.field("yaw", e.yaw)
        }
        w.field("gravity", f.gravity.array)
        w.field("rotationRate", f.rotationRate.array)
        w.field("userAcceleration", f.userAcceleration.array)
        w.field("tilt", [f.tilt.x, f.tilt.y])
        w.object("flags") {
            $0.field("initializing", f.flags.initializing)
            $0.field("rest", f.flags.rest)
            $0.field("accelDisturbed", f.flags.accelDisturbed)
            $0.field("magDisturbed", f.flags.magDisturbed)
        }
        w.field("source", f.source)
        w.field("axes", f.axes.axesName)
        if let reference = f.reference { w.field("reference", reference.rawValue) }
        if let accuracy = f.headingAccuracy { w.field("headingAccuracy", accuracy) }
        return w.finish()
    }
}
