/// The state of the sensor, as the daemon tells clients in `sensor` events and in `status`.
///
/// It lives in TiltCore because both sides share it: the sources report it, the wire carries it, clients branch on
/// it. The wire carries the raw value (`"active"`, …). A newer daemon may add states; a client built against this
/// version decodes one it does not know as ``unknown(_:)`` (keeping the text) instead of failing, so it can still
/// show it and treat it as "not one of mine".
public enum SensorState: Sendable, Hashable {
    /// Samples flow.
    case active
    /// Stopped because nobody watches (or not started yet).
    case idle
    /// The device went away or failed; the daemon may retry.
    case lost
    /// A replayed log reached its end.
    case finished
    /// A state this version does not know, as the daemon named it.
    case unknown(String)
}

extension SensorState: RawRepresentable, CustomStringConvertible, Codable {
    /// Never fails: text that names no known state becomes ``unknown(_:)``.
    public init(rawValue: String) {
        switch rawValue {
        case "active": self = .active
        case "idle": self = .idle
        case "lost": self = .lost
        case "finished": self = .finished
        default: self = .unknown(rawValue)
        }
    }

    public var rawValue: String {
        switch self {
        case .active: "active"
        case .idle: "idle"
        case .lost: "lost"
        case .finished: "finished"
        case .unknown(let text): text
        }
    }

    /// The raw value, so that `"\(state)"` reads as it does on the wire.
    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
