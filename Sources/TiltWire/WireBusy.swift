import TiltCore

/// `status.busy`: the sensor's buffer is held by another program and the daemon polls it instead.
public struct WireBusy: Sendable, Equatable, Codable {
    /// The IIO device, e.g. `iio:device0`.
    public var device: String
    /// Its character device, e.g. `/dev/iio:device0`.
    public var node: String
    /// Who holds it, e.g. `iio-sensor-proxy (pid 123)`, if known.
    public var holder: String?
    /// The holder's process id, if known.
    public var holderPid: Int?
    /// The polled rate, Hz.
    public var rate: Double
    /// Seconds until the buffer is tried again.
    public var retryIn: Double

    public init(_ busy: SensorBusy, now: Double) {
        device = busy.device
        node = busy.node
        holder = busy.holder
        holderPid = busy.holderPID
        rate = busy.rateHz
        retryIn = busy.retryIn(now: now)
    }

    func write(into w: inout JSONWriter) {
        w.field("device", device)
        if let holder { w.field("holder", holder) }
        if let holderPid { w.field("holderPid", holderPid) }
        w.field("node", node)
        w.field("rate", rate)
        w.field("retryIn", retryIn)
    }
}
