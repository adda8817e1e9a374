import TiltCore

/// What `tilt sensors` shows about one IIO device, and what ``IIOContextScanner`` finds.
package struct IIODeviceReport: Codable, Hashable, Sendable {
    /// The IIO device id, e.g. `iio:device0`.
    package var id: String
    /// The driver's name, e.g. `bmi160`.
    package var name: String
    /// The `label` attribute, e.g. `accel-display`, if any.
    package var label: String?
    /// Motion kinds it has: `accel`, `anglvel`, `magn`.
    package var kinds: [SensorKind]
    /// Input channel ids, e.g. `accel_x`, `timestamp`.
    package var channels: [String]
    /// The current sampling frequency in Hz, if the device has one.
    package var rateHz: Double?
    /// The rates it offers (`sampling_frequency_available`).
    package var availableRatesHz: [Double]
    /// `_scale` per kind (raw units to SI; magnetometers report Gauss).
    package var scale: [String: Double]
    /// `_offset` per kind, where present.
    package var offset: [String: Double]
    /// The mount matrix in effect (`a, b, c; d, e, f; g, h, i`) and where it came from.
    package var mountMatrix: String
    /// `kernel`, `udev`, `environment` or `none`.
    package var mountMatrixSource: String
    /// `buffered` (scan elements and a character device) or `polled` (`_raw` attributes only).
    package var mode: String
    /// The trigger in use or chosen, if any.
    package var trigger: String?
    /// Whether ``IIOMotionSource`` reads it; a base accelerometer is listed but not used.
    package var used: Bool
    /// Why it is or is not used, for people.
    package var role: String

    package init(
        id: String, name: String, label: String?, kinds: [SensorKind], channels: [String], rateHz: Double?,
        availableRatesHz: [Double], scale: [String: Double], offset: [String: Double], mountMatrix: String,
        mountMatrixSource: String, mode: String, trigger: String?, used: Bool, role: String
    ) {
        self.id = id
        self.name = name
        self.label = label
        self.kinds = kinds
        self.channels = channels
        self.rateHz = rateHz
        self.availableRatesHz = availableRatesHz
        self.scale = scale
        self.offset = offset
        self.mountMatrix = mountMatrix
        self.mountMatrixSource = mountMatrixSource
        self.mode = mode
        self.trigger = trigger
        self.used = used
        self.role = role
    }
}
