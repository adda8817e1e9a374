/// Constants of the tiltd wire protocol v1 (docs/protocol.md, a contract).
///
/// A Unix stream socket carrying one JSON object per line in each direction. The daemon greets each connection
/// with `hello`; clients send commands (`watch`, `poll`, `status`, `tare`); the daemon answers and streams
/// `attitude` frames to watchers. A bad line gets an `error` object and the connection stays open.
public enum WireProtocol {
    /// The protocol version carried in `hello`.
    public static let version = 1
    /// The longest line either side accepts, in bytes (without the newline).
    public static let maxLineLength = 64 * 1024
    /// The lowest watch rate the daemon grants, Hz: a `watch` asking for less (but more than 0) gets this.
    public static let minRate = 0.1
    /// The highest watch rate the daemon grants, Hz.
    public static let maxRate = 1000.0
    /// The furthest ahead a `watch` may ask frames to be predicted (`"predict"`), seconds: beyond it the rate says
    /// too little about where the device will be.
    public static let maxPredict = 0.1
    /// The rate a `watch` without `rate` gets, Hz.
    public static let defaultRate = 60.0
    /// The daemon's version string, as sent in `hello`.
    public static let daemonVersion = "0.1.0"
}
