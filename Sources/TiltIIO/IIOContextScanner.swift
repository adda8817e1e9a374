import TiltCore
import TiltSensors

/// Lists the IIO devices behind a libiio URI for `tilt sensors` (Linux only).
package enum IIOContextScanner {
    /// Opens the context at `uri` and describes every motion device in it (triggers and devices without
    /// accel, anglvel or magn axes are left out).
    ///
    /// - Parameter uri: A libiio URI: `local:` (default), `ip:HOST`.
    /// - Returns: One report per motion device, in context order.
    /// - Throws: ``IIOError`` when the context cannot be opened.
    package static func scan(uri: String = "local:") throws(IIOError) -> [IIODeviceReport] {
        let context = try IIOContext(uri: uri)
        let plan = try? IIOSensorPlan(context: context)
        let usedIDs = plan?.used.map(\.id) ?? []
        return context.devices.filter { !$0.isTrigger }.compactMap { device -> IIODeviceReport? in
            let kinds = [SensorKind.accelerometer, .gyroscope, .magnetometer].filter { device.axes($0.rawValue) != nil }
            guard let main = kinds.first?.rawValue else { return nil }
            var scale: [String: Double] = [:]
            var offset: [String: Double] = [:]
            for k in kinds.map(\.rawValue) {
                scale[k] = device.axes(k)?.first?.number("scale")
                offset[k] = device.axes(k)?.first?.number("offset")
            }
            let (matrix, source) = IIOSensorPlan.mountMatrix(for: device, kind: main)
            let used = usedIDs.contains(device.id)
            let role: String
            if used {
                role =
                    device.id == plan?.accel.id
                    ? "accelerometer in use" : "read for \(kinds.map(\.rawValue).joined(separator: ", "))"
            } else if device.label == "accel-base" {
                role = "base accelerometer: listed, not used"
            } else {
                role = "not used"
            }
            let buffered = IIOSensorPlan.isBuffered(device, kind: main)
            let trigger =
                device.currentTrigger
                ?? (buffered ? IIOSensorPlan.pickTrigger(for: device, in: context)?.name : nil)
            return IIODeviceReport(
                id: device.id, name: device.name, label: device.label, kinds: kinds,
                channels: device.channels.map(\.id), rateHz: IIOSensorPlan.rate(device, kind: main),
                availableRatesHz: IIOSensorPlan.availableRates(device, kind: main), scale: scale, offset: offset,
                mountMatrix: matrix.description, mountMatrixSource: source, mode: buffered ? "buffered" : "polled",
                trigger: trigger,
                used: used, role: role)
        }
    }
}
