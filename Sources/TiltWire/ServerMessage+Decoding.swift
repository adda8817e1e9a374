import Foundation
import TiltCore

/// Reading the daemon's lines: leniently where the protocol allows (a class this version does not know, `null` for a
/// non-finite number, a missing optional field).
extension ServerMessage {
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
        var axes: String?
        var reference: String?
        var headingAccuracy: Double?
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
                var frame = AttitudeFrame(
                    seq: f.seq, time: f.time, quaternion: try quaternion(f.quaternion),
                    gravity: try vector(f.gravity ?? [0, 0, 0]),
                    rotationRate: try vector(f.rotationRate ?? [0, 0, 0]),
                    userAcceleration: try vector(f.userAcceleration ?? [0, 0, 0]),
                    tilt: f.tilt.count == 2 ? .init(x: f.tilt[0] ?? .nan, y: f.tilt[1] ?? .nan) : .zero,
                    flags: .init(
                        initializing: f.flags?.initializing ?? false, rest: f.flags?.rest ?? false,
                        accelDisturbed: f.flags?.accelDisturbed ?? false,
                        magDisturbed: f.flags?.magDisturbed ?? false),
                    source: f.source ?? "", mono: f.mono)
                if let axes = f.axes {
                    guard let rotation = ScreenRotation(axesName: axes) else {
                        throw WireError("unknown axes '\(axes.prefix(32))' in an attitude frame")
                    }
                    frame.axes = rotation
                }
                frame.reference = f.reference.flatMap(AttitudeReference.init(rawValue:))
                frame.headingAccuracy = f.headingAccuracy
                return .attitude(frame)
            case "sample":
                let s = try decoder.decode(WireSample.self, from: data)
                return .sample(
                    MotionSample(
                        time: s.t, gyro: try vector(s.gyr), accel: try vector(s.acc), mag: try s.mag.map(vector)))
            case "power":
                return .power(try decoder.decode(WirePower.self, from: data).state)
            case "sensor":
                return .sensor(try decoder.decode(SensorEvent.self, from: data))
            case "orientation":
                return .orientation(try decoder.decode(WireOrientation.self, from: data))
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
