import TiltSensors

extension EvdevDiscovery {
    /// Describes every motion sensor for `tilt sensors`: sysfs's description, and for each node that can be opened
    /// its resolutions and its report rate, measured by reading it for `measureSeconds` (0: not measured).
    package func reports(measureSeconds: Double = 0.3) -> [EvdevDeviceReport] {
        motionSensors().map { info in
            var report = EvdevDeviceReport(
                path: info.path, name: info.name, uniq: info.uniq, axes: info.axes, kinds: info.kinds,
                accelResolution: nil, gyroResolution: nil, mount: EvdevMount(hasGyroscope: info.hasGyroscope).rawValue,
                rateHz: nil, problem: nil)
            do throws(EvdevError) {
                let reader = try EvdevReader(path: info.path)
                defer { reader.close() }
                report.accelResolution = reader.resolutions.accel
                report.gyroResolution = reader.resolutions.gyro
                report.mount = reader.mount.rawValue
                if measureSeconds > 0 { report.rateHz = reader.measureRate(seconds: measureSeconds) }
            } catch {
                report.problem = error.description
            }
            return report
        }
    }
}
