/// Every motion sensor tilt can read on this machine, for `tilt sensors`: the IIO devices behind a libiio URI and the
/// evdev motion sensors.
public struct SensorInventory: Codable, Hashable, Sendable {
    /// The IIO motion devices (``IIOContextScanner``).
    public var iio: [IIODeviceReport]
    /// Why the IIO context could not be read, if it could not.
    public var iioError: String?
    /// The evdev motion sensors (``EvdevDiscovery``).
    public var evdev: [EvdevDeviceReport]

    public init(iio: [IIODeviceReport], iioError: String?, evdev: [EvdevDeviceReport]) {
        self.iio = iio
        self.iioError = iioError
        self.evdev = evdev
    }

    /// Looks at both: IIO at `uri`, evdev through `discovery` (rates measured for `measureSeconds` each).
    public static func scan(
        uri: String = "local:", discovery: EvdevDiscovery = .init(), measureSeconds: Double = 0.3
    ) -> SensorInventory {
        var iio: [IIODeviceReport] = []
        var iioError: String?
        do { iio = try IIOContextScanner.scan(uri: uri) } catch { iioError = error.description }
        return SensorInventory(iio: iio, iioError: iioError, evdev: discovery.reports(measureSeconds: measureSeconds))
    }
}
