/// A sensor whose buffer another program holds, so it is read by polling its attributes for now.
///
/// On GNOME and KDE laptops `iio-sensor-proxy` often owns the accelerometer's IIO buffer and the kernel refuses a
/// second reader (`EBUSY`); the source then polls the `_raw` attributes and tries the buffer again later.
public struct SensorBusy: Hashable, Sendable {
    /// The IIO device whose buffer is busy, e.g. `iio:device0`.
    public var device: String
    /// Its character device, e.g. `/dev/iio:device0`.
    public var node: String
    /// Who holds the node, e.g. `iio-sensor-proxy (pid 123)`, when it can be told (same-user processes only).
    public var holder: String?
    /// The holder's process id, when known.
    public var holderPID: Int?
    /// The polled rate in Hz.
    public var rateHz: Double
    /// When the buffer is tried again, in ``monotonicSeconds()``.
    public var retryAt: Double

    public init(device: String, node: String, holder: String?, holderPID: Int?, rateHz: Double, retryAt: Double) {
        self.device = device
        self.node = node
        self.holder = holder
        self.holderPID = holderPID
        self.rateHz = rateHz
        self.retryAt = retryAt
    }

    /// Seconds until the buffer is tried again, to a tenth of a second, never negative.
    public func retryIn(now: Double = monotonicSeconds()) -> Double {
        (max(0, retryAt - now) * 10).rounded() / 10
    }

    /// A sentence for logs and the `sensor` event's reason.
    public func explanation(now: Double = monotonicSeconds()) -> String {
        let who = holder.map { "held by \($0)" } ?? "held by another program"
        return "the IIO buffer of \(device) is busy (\(node) \(who)); polling its attributes at \(formatHz(rateHz)) Hz "
            + "and trying the buffer again in \(formatHz(retryIn(now: now))) s"
    }

    private func formatHz(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e9 ? String(Int(v)) : String(v)
    }
}
