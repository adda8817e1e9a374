import Foundation
import TiltCore

/// A message from the daemon to a client, one JSON object per line with a `class` key.
public enum ServerMessage: Sendable, Equatable {
    /// Sent once on connect.
    case hello(Hello)
    /// One fused frame.
    ///
    /// Besides the fields of DESIGN.md's protocol v1, a frame may carry `"mono"` (after `"time"`): the daemon's
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
        return w.finish()
    }

    private struct Envelope: Decodable { var `class`: String }

    private struct WireFrame: Decodable {
        struct Flags: Decodable {
            var initializing: Bool?
            var rest: Bool?
            var accelDisturbed: Bool?
            var magDisturbed: Bool?
        }
        var seq: UInt64
        var time: Double
        var mono: Double?
        var quaternion: [Double?]
        var gravity: [Double?]?
        var rotationRate: [Double?]?
        var userAcceleration: [Double?]?
        var tilt: [Double?]
        var flags: Flags?
        var source: String?
    }

    private struct WireSample: Decodable {
        var t: Double
        var gyr: [Double?]
        var acc: [Double?]
        var mag: [Double?]?
    }

    private struct WireTare: Decodable { var reference: [Double?] }
    private struct WireErrorMessage: Decodable { var message: String }

    /// Decodes one line from the daemon.
    ///
    /// - Returns: `nil` for a well-formed object of a class this version does not know (newer daemons may add some).
    /// - Throws: ``WireError`` for a line that is not a valid message.
    public static func decode(_ line: some Collection<UInt8>) throws(WireError) -> ServerMessage? {
        let data = Data(line)
        let decoder = JSONDecoder()
        do {
            let envelope = try decoder.decode(Envelope.self, from: data)
            switch envelope.class {
            case "hello":
                return .hello(try decoder.decode(Hello.self, from: data))
            case "attitude":
                let f = try decoder.decode(WireFrame.self, from: data)
                return .attitude(
                    AttitudeFrame(
                        seq: f.seq, time: f.time, quaternion: try quaternion(f.quaternion),
                        gravity: try vector(f.gravity ?? [0, 0, 0]),
                        rotationRate: try vector(f.rotationRate ?? [0, 0, 0]),
                        userAcceleration: try vector(f.userAcceleration ?? [0, 0, 0]),
                        tilt: f.tilt.count == 2 ? .init(x: f.tilt[0] ?? .nan, y: f.tilt[1] ?? .nan) : .zero,
                        flags: .init(
                            initializing: f.flags?.initializing ?? false, rest: f.flags?.rest ?? false,
                            accelDisturbed: f.flags?.accelDisturbed ?? false,
                            magDisturbed: f.flags?.magDisturbed ?? false),
                        source: f.source ?? "", mono: f.mono))
            case "sample":
                let s = try decoder.decode(WireSample.self, from: data)
                return .sample(
                    MotionSample(
                        time: s.t, gyro: try vector(s.gyr), accel: try vector(s.acc), mag: try s.mag.map(vector)))
            case "power":
                return .power(try decoder.decode(WirePower.self, from: data).state)
            case "sensor":
                return .sensor(try decoder.decode(SensorEvent.self, from: data))
            case "status":
                return .status(try decoder.decode(StatusReport.self, from: data))
            case "tare":
                return .tare(reference: try quaternion(try decoder.decode(WireTare.self, from: data).reference))
            case "error":
                return .error(message: try decoder.decode(WireErrorMessage.self, from: data).message)
            default:
                return nil
            }
        } catch let error as WireError {
            throw error
        } catch {
            throw WireError("cannot decode a message from the daemon: \(error)")
        }
    }

    /// The numbers of an array in which `null` stands for a non-finite number (the wire's convention), as NaN.
    private static func numbers(_ a: [Double?], count: Int, of what: String) throws(WireError) -> [Double] {
        guard a.count == count else { throw WireError("expected \(count) numbers for \(what), got \(a.count)") }
        return a.map { $0 ?? .nan }
    }

    private static func vector(_ a: [Double?]) throws(WireError) -> Vector3 {
        let v = try numbers(a, count: 3, of: "a vector")
        return Vector3(v[0], v[1], v[2])
    }

    private static func quaternion(_ a: [Double?]) throws(WireError) -> Quaternion {
        let q = try numbers(a, count: 4, of: "a quaternion")
        return Quaternion(w: q[0], x: q[1], y: q[2], z: q[3])
    }
}
