import TiltEvdev
import TiltIIO
import TiltSensors

extension SensorInventory {
    /// Looks at both: IIO at `uri`, evdev through `discovery` (rates measured for `measureSeconds` each).
    package static func scan(
        uri: String = "local:", discovery: EvdevDiscovery = .init(), measureSeconds: Double = 0.3
    ) -> SensorInventory {
        var iio: [IIODeviceReport] = []
        var iioError: String?
        do { iio = try IIOContextScanner.scan(uri: uri) } catch { iioError = error.description }
        return SensorInventory(iio: iio, iioError: iioError, evdev: discovery.reports(measureSeconds: measureSeconds))
    }
}
