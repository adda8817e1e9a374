import FoundationEssentials
import TiltSensors

#if canImport(Glibc)
    import Glibc
#endif

/// Which IIO devices give the accelerometer, gyroscope and magnetometer (Linux only), and how each is mounted.
///
/// The accelerometer is the device labelled `accel-display`, else the first accelerometer not labelled
/// `accel-base` (preferring one that also has a gyroscope). A base accelerometer is listed but never read.
struct IIOSensorPlan {
    var accel: IIODeviceHandle
    var gyro: IIODeviceHandle?
    var magn: IIODeviceHandle?

    init(context: IIOContext) throws(IIOError) {
        let devices = context.devices.filter { !$0.isTrigger }
        let accels = devices.filter { $0.axes("accel") != nil }
        let candidates = accels.filter { $0.label != "accel-base" }
        guard
            let accel = accels.first(where: { $0.label == "accel-display" })
                ?? candidates.first(where: { $0.axes("anglvel") != nil }) ?? candidates.first
        else { throw IIOError.noSensors(uri: context.uri) }
        self.accel = accel
        gyro = accel.axes("anglvel") != nil ? accel : devices.first { $0.axes("anglvel") != nil }
        magn = devices.first { $0.axes("magn") != nil }
    }

    /// The devices read, without repeats.
    var used: [IIODeviceHandle] {
        var out = [accel]
        for d in [gyro, magn].compactMap({ $0 }) where !out.contains(where: { $0.pointer == d.pointer }) {
            out.append(d)
        }
        return out
    }

    /// The mount matrix for `device`: `$TILT_ACCEL_MOUNT_MATRIX` (accelerometer only), then the kernel's
    /// `mount_matrix` attributes, then udev's `ACCEL_MOUNT_MATRIX` from the udev database
    /// (`/run/udev/data/+iio:iio:deviceN`, `E:` lines), else the identity.
    static func mountMatrix(for device: IIODeviceHandle, kind: String) -> (IIOMountMatrix, String) {
        let env = ProcessInfo.processInfo.environment
        if kind == "accel", let text = env["TILT_ACCEL_MOUNT_MATRIX"], let m = try? IIOMountMatrix(parsing: text) {
            return (m, "environment")
        }
        let kernel =
            device.axes(kind)?.first?.attr("mount_matrix") ?? device.attr("in_\(kind)_mount_matrix")
            ?? device.attr("in_mount_matrix") ?? device.attr("mount_matrix")
        if let kernel, let m = try? IIOMountMatrix(parsing: kernel) { return (m, "kernel") }
        if kind == "accel" {
            let dbDir = env["TILT_UDEV_DATA_DIR"] ?? "/run/udev/data"
            if let db = try? String(contentsOfFile: "\(dbDir)/+iio:\(device.id)", encoding: .utf8) {
                for line in db.split(separator: "\n") where line.hasPrefix("E:ACCEL_MOUNT_MATRIX=") {
                    if let m = try? IIOMountMatrix(parsing: String(line.dropFirst("E:ACCEL_MOUNT_MATRIX=".count))) {
                        return (m, "udev")
                    }
                }
            }
        }
        return (.identity, "none")
    }

    /// The rates the device offers, from `sampling_frequency_available` (channel-level or device-level).
    static func availableRates(_ device: IIODeviceHandle, kind: String) -> [Double] {
        let text =
            device.axes(kind)?.first?.attr("sampling_frequency_available")
            ?? device.attr("sampling_frequency_available") ?? ""
        return text.split(separator: " ").compactMap { Double($0) }.sorted()
    }

    /// The current rate.
    static func rate(_ device: IIODeviceHandle, kind: String) -> Double? {
        device.axes(kind)?.first?.number("sampling_frequency") ?? device.attr("sampling_frequency").flatMap(Double.init)
    }

    /// The lowest available rate that serves `wanted`, else the highest available.
    static func pickRate(available: [Double], wanted: Double) -> Double? {
        available.first { $0 >= wanted } ?? available.last
    }

    /// Whether the device streams through a buffer: its accel (or first) axes are scan elements.
    static func isBuffered(_ device: IIODeviceHandle, kind: String) -> Bool {
        device.axes(kind)?.allSatisfy(\.isScanElement) ?? false
    }

    /// A trigger for `device` when it has none: one named after the device (`bmi160-dev0`), else the first.
    static func pickTrigger(for device: IIODeviceHandle, in context: IIOContext) -> IIODeviceHandle? {
        let triggers = context.devices.filter(\.isTrigger)
        return triggers.first { $0.name.hasPrefix(device.name) } ?? triggers.first
    }
}
