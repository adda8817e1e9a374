extension FakeIIOTree {
    /// The scan element type of ``addDisplayIMU(_:)``'s channels: little-endian signed 16 bits.
    public static let imuScanType = "le:s16/16>>0"

    /// Adds `iio:deviceN`: a buffered bmi160 accelerometer and gyroscope labelled `accel-display`, counts of 0.001
    /// (m/s², rad/s), 25 to 200 Hz, scans of accel x/y/z, anglvel x/y/z and a timestamp.
    public func addDisplayIMU(_ n: Int = 0) throws {
        try addDevice(
            n, name: "bmi160", label: "accel-display", kinds: ["accel", "anglvel"],
            scale: ["accel": "0.001", "anglvel": "0.001"], rates: "25 50 100 200",
            scan: .init(kinds: ["accel", "anglvel"], type: Self.imuScanType))
    }
}
