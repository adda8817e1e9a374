import TiltCore

/// The answer to `status`: the daemon's state and the asking connection's own counters.
public struct StatusReport: WireMessage, Codable {
    public static var messageClass: MessageClass { .status }

    /// `tiltd X.Y.Z`.
    public var daemon: String
    public var `protocol`: Int
    /// Seconds since the daemon started.
    public var uptime: Double
    /// The source's name (`replay:FILE`, `iio:DEVICE`).
    public var source: String
    /// What the sensor does now.
    public var sensor: SensorState
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
    /// The calibration in use, and why (or why none), for people to read.
    public var calibration: String
    /// Whether a calibration is applied to the samples: what a client branches on (``calibration`` is prose).
    ///
    /// Added after protocol v1's first daemons; from one that does not send it, it is read off ``calibration``,
    /// whose text then starts with `none` when nothing applies.
    public var calibrated: Bool
    public var power: WirePower
    /// How the sensor is read now: `buffered`, `polled` or `replay` (`polled` while its buffer is busy).
    public var sensorMode: String?
    /// Set while another program holds the sensor's IIO buffer and the daemon polls it instead.
    public var busy: WireBusy?
    /// This connection.
    public var client: Client
    /// The attitude filters running now: `magnetic` (9D) and/or `game` (6D), each only while a watcher or poll
    /// needs it (`game` alone when the sensor runs for claims only); empty while the sensor is idle. Absent from
    /// daemons before issue 16.
    public var filters: [AttitudeReference]?
    /// The device's orientation and tilt (issue 16); absent from daemons before it.
    public var orientation: WireOrientation?
    /// tiltd's DSU server, when it runs (`--dsu-server`).
    public var dsu: WireDSU?

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
        /// The `screenRotation` this client watches with (0 when it named none).
        public var screenRotation: Int?
        /// The `magnetometer` choice it made (`nil`: the daemon's default).
        public var magnetometer: Bool?
        /// How far ahead its frames are predicted, seconds (`watch`'s `predict`); `nil` when it asked for none.
        public var predict: Double?

        public init(
            id: UInt64, watching: Bool, rate: Double?, raw: Bool, sent: UInt64, dropped: UInt64, errors: UInt64,
            uid: Int?, pid: Int?, screenRotation: Int? = nil, magnetometer: Bool? = nil
        ) {
            self.screenRotation = screenRotation
            self.magnetometer = magnetometer
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
        daemon: String, protocol: Int, uptime: Double, source: String, sensor: SensorState, clients: Int,
        watchers: Int, requestedRate: Double?, samples: UInt64, rejected: UInt64, lastRejection: String?,
        seq: UInt64?, gyroBias: [Double], calibration: String, calibrated: Bool, power: WirePower, client: Client,
        filters: [AttitudeReference]? = nil, orientation: WireOrientation? = nil
    ) {
        self.filters = filters
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
        self.calibrated = calibrated
        self.power = power
        self.client = client
        self.orientation = orientation
    }

    private enum CodingKeys: String, CodingKey {
        case daemon, `protocol`, uptime, source, sensor, clients, watchers, requestedRate, samples, rejected,
            lastRejection, seq, gyroBias, calibration, calibrated, power, client, filters, orientation
        case sensorMode, busy, dsu
    }

    /// Decodes leniently where the wire allows: `null` for a non-finite number, no `calibrated` from older daemons.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        daemon = try c.decode(String.self, forKey: .daemon)
        `protocol` = try c.decode(Int.self, forKey: .protocol)
        uptime = try c.decodeIfPresent(Double.self, forKey: .uptime) ?? .nan
        source = try c.decode(String.self, forKey: .source)
        sensor = try c.decode(SensorState.self, forKey: .sensor)
        clients = try c.decode(Int.self, forKey: .clients)
        watchers = try c.decode(Int.self, forKey: .watchers)
        requestedRate = try c.decodeIfPresent(Double.self, forKey: .requestedRate)
        samples = try c.decode(UInt64.self, forKey: .samples)
        rejected = try c.decode(UInt64.self, forKey: .rejected)
        lastRejection = try c.decodeIfPresent(String.self, forKey: .lastRejection)
        seq = try c.decodeIfPresent(UInt64.self, forKey: .seq)
        gyroBias = try c.decode([Double?].self, forKey: .gyroBias).map { $0 ?? .nan }
        calibration = try c.decode(String.self, forKey: .calibration)
        calibrated = try c.decodeIfPresent(Bool.self, forKey: .calibrated) ?? !calibration.hasPrefix("none")
        power = try c.decode(WirePower.self, forKey: .power)
        client = try c.decode(Client.self, forKey: .client)
        filters = try c.decodeIfPresent([AttitudeReference].self, forKey: .filters)
        orientation = try c.decodeIfPresent(WireOrientation.self, forKey: .orientation)
        sensorMode = try c.decodeIfPresent(String.self, forKey: .sensorMode)
        busy = try c.decodeIfPresent(WireBusy.self, forKey: .busy)
        dsu = try c.decodeIfPresent(WireDSU.self, forKey: .dsu)
    }

    /// The fields in key order (after `"class":"status"`), an absent optional left out.
    public func writeFields(into w: inout JSONWriter) {
        if let busy { w.object("busy") { busy.write(into: &$0) } }
        w.field("calibrated", calibrated)
        w.field("calibration", calibration)
        w.object("client") { client.write(into: &$0) }
        w.field("clients", clients)
        w.field("daemon", daemon)
        if let dsu { w.object("dsu") { dsu.write(into: &$0) } }
        if let filters { w.field("filters", strings: filters.map { $0.rawValue }) }
        w.field("gyroBias", gyroBias)
        if let lastRejection { w.field("lastRejection", lastRejection) }
        if let orientation { w.object("orientation") { orientation.writeFields(into: &$0) } }
        w.object("power") { power.writeSorted(into: &$0) }
        w.field("protocol", `protocol`)
        w.field("rejected", rejected)
        if let requestedRate { w.field("requestedRate", requestedRate) }
        w.field("samples", samples)
        if let seq { w.field("seq", seq) }
        w.field("sensor", sensor)
        if let sensorMode { w.field("sensorMode", sensorMode) }
        w.field("source", source)
        w.field("uptime", uptime)
        w.field("watchers", watchers)
    }
}

extension StatusReport.Client {
    func write(into w: inout JSONWriter) {
        w.field("dropped", dropped)
        w.field("errors", errors)
        w.field("id", id)
        if let magnetometer { w.field("magnetometer", magnetometer) }
        if let pid { w.field("pid", pid) }
        if let predict { w.field("predict", predict) }
        if let rate { w.field("rate", rate) }
        w.field("raw", raw)
        if let screenRotation { w.field("screenRotation", screenRotation) }
        w.field("sent", sent)
        if let uid { w.field("uid", uid) }
        w.field("watching", watching)
    }
}

extension WirePower {
    /// The fields in key order, an absent one left out: as `status` has always written them.
    func writeSorted(into w: inout JSONWriter) {
        if let capacity { w.field("capacity", capacity) }
        w.field("lowPower", lowPower)
        w.field("onBattery", onBattery)
        if let profile { w.field("profile", profile) }
    }
}
