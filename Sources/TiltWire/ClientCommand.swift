import FoundationEssentials
import TiltCore

/// A command a client sends to the daemon, one JSON object per line.
public enum ClientCommand: Sendable, Equatable {
    /// `{"cmd":"watch","rate":30}`: stream frames at most `rate` Hz (latest value wins); `"enable":false` stops.
    /// `"raw":true` also streams the raw samples (`sample` objects) at the sensor's rate.
    /// `"screenRotation":90` gives the device-axis fields in the axes of a picture the display turns that many
    /// degrees counter-clockwise (``ScreenRotation``); `"magnetometer":false` asks for the 6D (game rotation)
    /// attitude, `true` for 9D, absent (`nil`) for the daemon's default. `"predict":0.03` asks for frames predicted
    /// that many seconds ahead of their sample (0 … ``WireProtocol/maxPredict``; 0, the default, is none).
    case watch(
        enable: Bool, rate: Double?, raw: Bool, screenRotation: ScreenRotation = .normal, magnetometer: Bool? = nil,
        predict: Double = 0)
    /// `{"cmd":"poll"}`: one frame now.
    case poll
    /// `{"cmd":"status"}`: the daemon's and this connection's state.
    case status
    /// `{"cmd":"tare"}`: re-centre the tilt on the current pose.
    case tare
    /// `{"cmd":"tare","reset":true}`: undo every tare, so the tilt is relative to the first pose after the daemon
    /// started again. A variant of `tare` rather than a command of its own: it changes the same shared state, so it
    /// is authorised (and answered, with a `tare` message) the same way.
    case resetTare

    /// The JSON line (without newline) for this command.
    public var jsonLine: String {
        switch self {
        case .watch(let enable, let rate, let raw, let rotation, let magnetometer, let predict):
            var w = JSONWriter()
            w.field("cmd", "watch")
            if !enable { w.field("enable", false) }
            if let rate { w.field("rate", rate) }
            if raw { w.field("raw", true) }
            if rotation != .normal { w.field("screenRotation", rotation.degrees) }
            if let magnetometer { w.field("magnetometer", magnetometer) }
            if predict > 0 { w.field("predict", predict) }
            return w.finish()
        case .poll: return #"{"cmd":"poll"}"#
        case .status: return #"{"cmd":"status"}"#
        case .tare: return #"{"cmd":"tare"}"#
        case .resetTare: return #"{"cmd":"tare","reset":true}"#
        }
    }

    private static func isJSONSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private struct Envelope: Decodable {
        var cmd: String?
        var rate: Double?
        var enable: Bool?
        var raw: Bool?
        var reset: Bool?
        var screenRotation: Double?
        var magnetometer: Bool?
        var predict: Double?
    }

    /// Decodes one line (without its newline).
    ///
    /// - Throws: ``WireError`` saying what is wrong and what a valid line looks like.
    public static func decode(_ line: some Collection<UInt8>) throws(WireError) -> ClientCommand {
        if line.count > WireProtocol.maxLineLength {
            throw WireError(
                .lineTooLong, "line too long (\(line.count) bytes; the limit is \(WireProtocol.maxLineLength))")
        }
        guard line.first(where: { !Self.isJSONSpace($0) }) == UInt8(ascii: "{") else {
            throw WireError(.notAnObject, "not a JSON object; send one object per line, e.g. {\"cmd\":\"status\"}")
        }
        let data = Data(line)
        let envelope: Envelope
        do {
            envelope = try JSONDecoder().decode(Envelope.self, from: data)
        } catch DecodingError.typeMismatch(_, let context) {
            let key = context.codingPath.last?.stringValue ?? "value"
            throw WireError(
                .wrongType(field: key), "'\(key)' has the wrong type; expected e.g. {\"cmd\":\"watch\",\"rate\":30}")
        } catch {
            throw WireError(.notAnObject, "not a JSON object; send one object per line, e.g. {\"cmd\":\"status\"}")
        }
        guard let cmd = envelope.cmd else {
            throw WireError(.missingCommand, "missing \"cmd\"; known commands: watch, poll, status, tare")
        }
        switch cmd {
        case "watch":
            if let rate = envelope.rate, !(rate > 0 && rate.isFinite) {
                throw WireError(.badValue(field: "rate"), "'rate' must be a positive number of frames per second")
            }
            var rotation = ScreenRotation.normal
            if let degrees = envelope.screenRotation {
                guard let exact = Int(exactly: degrees), let r = ScreenRotation(degrees: exact) else {
                    throw WireError(
                        .badValue(field: "screenRotation"),
                        "'screenRotation' must be 0, 90, 180 or 270 (degrees counter-clockwise the display turns "
                            + "its picture), not \(Int(exactly: degrees).map(String.init) ?? "\(degrees)")")
                }
                rotation = r
            }
            var predict = 0.0
            if let seconds = envelope.predict {
                guard seconds.isFinite, seconds >= 0, seconds <= WireProtocol.maxPredict else {
                    throw WireError(
                        .badValue(field: "predict"),
                        "'predict' must be from 0 to \(WireProtocol.maxPredict) seconds (how far ahead of each sample "
                            + "to predict the attitude, e.g. 0.03), not \(seconds)")
                }
                // Whole milliseconds: the daemon keeps one tilt smoothing per horizon.
                predict = (seconds * 1000).rounded() / 1000
            }
            return .watch(
                enable: envelope.enable ?? true, rate: envelope.rate, raw: envelope.raw ?? false,
                screenRotation: rotation, magnetometer: envelope.magnetometer, predict: predict)
        case "poll": return .poll
        case "status": return .status
        case "tare": return envelope.reset == true ? .resetTare : .tare
        default:
            throw WireError(
                .unknownCommand(String(cmd.prefix(64))),
                "unknown command '\(cmd.prefix(64))'; known commands: watch, poll, status, tare")
        }
    }
}
