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
}
