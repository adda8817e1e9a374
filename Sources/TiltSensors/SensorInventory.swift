/// Every motion sensor tilt can read on this machine, for `tilt sensors`: the IIO devices behind a libiio URI and the
/// evdev motion sensors.
package struct SensorInventory: Codable, Hashable, Sendable {
    /// The IIO motion devices (``IIOContextScanner``).
    package var iio: [IIODeviceReport]
    /// Why the IIO context could not be read, if it could not.
    package var iioError: String?
    /// The evdev motion sensors (``EvdevDiscovery``).
    package var evdev: [EvdevDeviceReport]

    package init(iio: [IIODeviceReport], iioError: String?, evdev: [EvdevDeviceReport]) {
        self.iio = iio
        self.iioError = iioError
        self.evdev = evdev
    }
}
