import TiltCore

/// What `tilt sensors` shows about one evdev motion sensor: sysfs's description, and what opening it tells (the
/// axes' resolutions, the report rate) when it can be read.
package struct EvdevDeviceReport: Codable, Hashable, Sendable {
    /// The event node, e.g. `/dev/input/event7`.
    package var path: String
    /// The input device's name, which calibration files match (`name = …` in `[match]`).
    package var name: String
    /// A controller's Bluetooth address or serial (`uniq`), where the driver sets it.
    package var uniq: String?
    /// `ABS_X` … `ABS_RZ` it has, by name (`x`, `y`, `z`, `rx`, `ry`, `rz`).
    package var axes: [String]
    /// `accel`, and `anglvel` with a gyroscope.
    package var kinds: [SensorKind]
    /// The resolution of `ABS_X/Y/Z` in units per g, and of `ABS_RX/RY/RZ` in units per °/s; `nil` when the node
    /// could not be opened.
    package var accelResolution: [Int32]?
    package var gyroResolution: [Int32]?
    /// How its axes turn into the device frame before calibration: `controller` or `identity` (``EvdevMount``).
    package var mount: String
    /// The report rate measured over a moment of reading, Hz; `nil` when not measured or the device sent too few
    /// reports (an accelerometer that reports changes only, lying still).
    package var rateHz: Double?
    /// Why the node could not be opened, if it could not (e.g. permission), with what to do.
    package var problem: String?

    package init(
        path: String, name: String, uniq: String?, axes: [String], kinds: [SensorKind], accelResolution: [Int32]?,
        gyroResolution: [Int32]?, mount: String, rateHz: Double?, problem: String?
    ) {
        self.path = path
        self.name = name
        self.uniq = uniq
        self.axes = axes
        self.kinds = kinds
        self.accelResolution = accelResolution
        self.gyroResolution = gyroResolution
        self.mount = mount
        self.rateHz = rateHz
        self.problem = problem
    }
}
