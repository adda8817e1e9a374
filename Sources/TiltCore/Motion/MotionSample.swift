/// One time-aligned reading of the inertial sensors, in SI units and in the device frame after the mount matrix.
public struct MotionSample: Hashable, Sendable {
    /// Seconds on the sensor clock (IIO timestamp channel, else `CLOCK_MONOTONIC`, else the log's `t`).
    public var time: Double
    /// Angular rate in rad/s.
    public var gyro: Vector3
    /// Specific force in m/s² (reads about +9.81 on z when the device lies flat, screen up).
    public var accel: Vector3
    /// Magnetic field in µT, or `nil` when the device has no magnetometer or the log has no `mag_*` columns.
    public var mag: Vector3?

    public init(time: Double, gyro: Vector3, accel: Vector3, mag: Vector3? = nil) {
        self.time = time
        self.gyro = gyro
        self.accel = accel
        self.mag = mag
    }
}

/// Standard gravity, m/s².
public let standardGravity = 9.80665
