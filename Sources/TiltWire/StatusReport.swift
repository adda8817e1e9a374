import Foundation

/// The answer to `status`: the daemon's state and the asking connection's own counters.
public struct StatusReport: Sendable, Equatable, Codable {
    /// `tiltd X.Y.Z`.
    public var daemon: String
    public var `protocol`: Int
    /// Seconds since the daemon started.
    public var uptime: Double
    /// The source's name (`replay:FILE`, `iio:DEVICE`).
    public var source: String
    /// `active`, `idle`, `lost` or `finished`.
    public var sensor: String
    /// Connected clients.
    public var clients: Int
    /// Clients watching frames.
    public var watchers: Int
    /// The sample rate asked of the source, Hz (the highest watch rate), if any.
    public var requestedRate: Double?
    /// Samples fused since start.
    public var samples: UInt64
    /// Samples or log rows rejected since start (corrupt rows, non-finite readings).
    public var rejected: UInt64
    /// The last rejection's reason, if any.
    public var lastRejection: String?
    /// Sequence number of the latest frame, if any.
    public var seq: UInt64?
    /// The gyroscope bias estimate, rad/s, `[x, y, z]`.
    public var gyroBias: [Double]
    /// The calibration in use, and why (or why none).
    public var calibration: String
    public var power: WirePower
    /// This connection.
    public var client: Client

    /// Counters of the connection that asked.
    public struct Client: Sendable, Equatable, Codable {
        public var id: UInt64
        public var watching: Bool
        public var rate: Double?
        public var raw: Bool
        /// Frames sent to this client.
        public var sent: UInt64
        /// Frames not sent because this client was not reading fast enough.
        public var dropped: UInt64
        /// Lines from this client that got an `error`.
        public var errors: UInt64
        /// Peer credentials, if the socket gave them.
        public var uid: Int?
        public var pid: Int?

        public init(
            id: UInt64, watching: Bool, rate: Double?, raw: Bool, sent: UInt64, dropped: UInt64, errors: UInt64,
            uid: Int?, pid: Int?
        ) {
            self.id = id
            self.watching = watching
            self.rate = rate
            self.raw = raw
            self.sent = sent
            self.dropped = dropped
            self.errors = errors
            self.uid = uid
            self.pid = pid
        }
    }

    public init(
        daemon: String, protocol: Int, uptime: Double, source: String, sensor: String, clients: Int, watchers: Int,
        requestedRate: Double?, samples: UInt64, rejected: UInt64, lastRejection: String?, seq: UInt64?,
        gyroBias: [Double], calibration: String, power: WirePower, client: Client
    ) {
        self.daemon = daemon
        self.protocol = `protocol`
        self.uptime = uptime
        self.source = source
        self.sensor = sensor
        self.clients = clients
        self.watchers = watchers
        self.requestedRate = requestedRate
        self.samples = samples
        self.rejected = rejected
        self.lastRejection = lastRejection
        self.seq = seq
        self.gyroBias = gyroBias
        self.calibration = calibration
        self.power = power
        self.client = client
    }

    private enum CodingKeys: String, CodingKey {
        case daemon, `protocol`, uptime, source, sensor, clients, watchers, requestedRate, samples, rejected,
            lastRejection, seq, gyroBias, calibration, power, client
    }

    /// The `status` line, with `"class":"status"` first.
    public var jsonLine: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        guard let data = try? encoder.encode(self), let body = String(data: data, encoding: .utf8), body.count > 2
        else {
            return #"{"class":"status"}"#
        }
        return #"{"class":"status","# + body.dropFirst()
    }
}
