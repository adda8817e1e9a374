import FoundationEssentials
import TiltCore

/// `attitude`: one fused frame, written without Codable (the daemon's per-frame path).
extension AttitudeFrame: WireMessage {
    public static var messageClass: MessageClass { .attitude }

    public func writeFields(into w: inout JSONWriter) {
        w.field("seq", seq)
        w.field("time", time)
        if let mono { w.field("mono", mono) }
        w.field("quaternion", quaternion.array)
        w.object("euler") { [euler] in
            $0.field("roll", euler.roll)
            $0.field("pitch", euler.pitch)
            $0.field("yaw", euler.yaw)
        }
        w.field("gravity", gravity.array)
        w.field("rotationRate", rotationRate.array)
        w.field("userAcceleration", userAcceleration.array)
        w.field("tilt", [tilt.x, tilt.y])
        w.object("flags") { [flags] in
            $0.field("initializing", flags.initializing)
            $0.field("rest", flags.rest)
            $0.field("accelDisturbed", flags.accelDisturbed)
            $0.field("magDisturbed", flags.magDisturbed)
        }
        w.field("source", source)
        w.field("axes", axes.axesName)
        if let reference { w.field("reference", reference.rawValue) }
        if let headingAccuracy { w.field("headingAccuracy", headingAccuracy) }
        if let predicted { w.field("predicted", predicted) }
    }

    /// The frame's fields as the wire has them; `euler` is not read (it follows from the quaternion).
    private struct Fields: Decodable {
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
        var axes: String?
        var reference: String?
        var headingAccuracy: Double?
        var predicted: Double?
    }

    public static func decode(line: Data, using decoder: JSONDecoder) throws -> AttitudeFrame {
        let f = try decoder.decode(Fields.self, from: line)
        var frame = AttitudeFrame(
            seq: f.seq, time: f.time, quaternion: try WireNumbers.quaternion(f.quaternion),
            gravity: try WireNumbers.vector(f.gravity ?? [0, 0, 0]),
            rotationRate: try WireNumbers.vector(f.rotationRate ?? [0, 0, 0]),
            userAcceleration: try WireNumbers.vector(f.userAcceleration ?? [0, 0, 0]),
            tilt: f.tilt.count == 2 ? .init(x: f.tilt[0] ?? .nan, y: f.tilt[1] ?? .nan) : .zero,
            flags: .init(
                initializing: f.flags?.initializing ?? false, rest: f.flags?.rest ?? false,
                accelDisturbed: f.flags?.accelDisturbed ?? false,
                magDisturbed: f.flags?.magDisturbed ?? false),
            source: f.source ?? "", mono: f.mono)
        if let axes = f.axes {
            guard let rotation = ScreenRotation(axesName: axes) else {
                throw WireError(.malformedMessage, "unknown axes '\(axes.prefix(32))' in an attitude frame")
            }
            frame.axes = rotation
        }
        frame.reference = f.reference.flatMap(AttitudeReference.init(rawValue:))
        frame.headingAccuracy = f.headingAccuracy
        frame.predicted = f.predicted.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
        return frame
    }
}

/// `sample`: one raw sample, as fused, after calibration.
extension MotionSample: WireMessage {
    public static var messageClass: MessageClass { .sample }

    public func writeFields(into w: inout JSONWriter) {
        w.field("t", time)
        w.field("gyr", gyro.array)
        w.field("acc", accel.array)
        if let mag { w.field("mag", mag.array) } else { w.null("mag") }
    }

    private struct Fields: Decodable {
        var t: Double
        var gyr: [Double?]
        var acc: [Double?]
        var mag: [Double?]?
    }

    public static func decode(line: Data, using decoder: JSONDecoder) throws -> MotionSample {
        let s = try decoder.decode(Fields.self, from: line)
        return MotionSample(
            time: s.t, gyro: try WireNumbers.vector(s.gyr), accel: try WireNumbers.vector(s.acc),
            mag: try s.mag.map(WireNumbers.vector))
    }
}

/// `power`: the power state changed (also in `hello`), its fields as ``WirePower`` writes them.
extension PowerState: WireMessage {
    public static var messageClass: MessageClass { .power }

    public func writeFields(into w: inout JSONWriter) {
        WirePower(self).write(into: &w)
    }

    public static func decode(line: Data, using decoder: JSONDecoder) throws -> PowerState {
        try decoder.decode(WirePower.self, from: line).state
    }
}

/// `tare`: the answer to `tare`, the new reference pose.
public struct TareAnswer: WireMessage, Decodable {
    public static var messageClass: MessageClass { .tare }

    public var reference: Quaternion

    public init(reference: Quaternion) {
        self.reference = reference
    }

    public func writeFields(into w: inout JSONWriter) {
        w.field("reference", reference.array)
    }

    private enum CodingKeys: String, CodingKey { case reference }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        reference = try WireNumbers.quaternion(try c.decode([Double?].self, forKey: .reference))
    }
}

/// `error`: a complaint about the client's last line, carrying the ``WireError`` that line raised.
extension WireError: WireMessage, Decodable {
    public static var messageClass: MessageClass { .error }

    public func writeFields(into w: inout JSONWriter) {
        w.field("message", message)
    }

    private enum CodingKeys: String, CodingKey { case message }

    public init(from decoder: any Decoder) throws {
        self.init(.reported, try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .message))
    }
}

/// Numbers of the wire's arrays, where `null` stands for a non-finite number (the wire's convention), read as NaN.
enum WireNumbers {
    static func numbers(_ a: [Double?], count: Int, of what: String) throws(WireError) -> [Double] {
        guard a.count == count else {
            throw WireError(.malformedMessage, "expected \(count) numbers for \(what), got \(a.count)")
        }
        return a.map { $0 ?? .nan }
    }

    static func vector(_ a: [Double?]) throws(WireError) -> Vector3 {
        let v = try numbers(a, count: 3, of: "a vector")
        return Vector3(v[0], v[1], v[2])
    }

    static func quaternion(_ a: [Double?]) throws(WireError) -> Quaternion {
        let q = try numbers(a, count: 4, of: "a quaternion")
        return Quaternion(w: q[0], x: q[1], y: q[2], z: q[3])
    }
}
