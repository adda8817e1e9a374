import TiltCore

extension SensorLogWriter {
    /// A log for a live recording of `sensors` (`tilt record`): its first line says the first sensor's rate
    /// (`sampling_rate_hz`), every sensor's name joined by `+` (`device`) and where the samples came from (`source`);
    /// it has magnetometer columns when any sensor measures the field.
    ///
    /// ``SensorLog/recordedDeviceName`` reads the device back, so a calibration made from the log is matched to the
    /// sensor that recorded it.
    package convenience init(recordingTo path: String, sensors: [SensorDescription], source: String)
        throws(SensorLogError)
    {
        try self.init(
            path: path,
            metadata: [
                ("sampling_rate_hz", sensors.first?.rateHz.map { "\($0)" } ?? "unknown"),
                ("device", sensors.map(\.name).joined(separator: "+")),
                ("source", source),
            ],
            hasMagnetometer: sensors.contains { $0.kinds.contains(.magnetometer) })
    }
}

extension SensorLog {
    /// The first sensor named in the `device` metadata of a recording (`bmi160` of `bmi160+ak8975`), if any.
    package var recordedDeviceName: String? {
        metadata["device"].flatMap { $0.split(separator: "+").first.map(String.init) }
    }
}
