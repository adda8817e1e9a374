import TiltCore

/// The DSU protocol's axes and units against tilt's device frame (issue 31; docs/dsu.md has the table).
///
/// DSU carries a game controller's motion as the DualShock 4 drivers that started it (and the programs that speak it
/// now: DS4Windows, BetterJoy, SDL-based servers, phone apps) hand it over: accelerometer x, y, z in g, and
/// gyroscope pitch, yaw, roll in degrees per second, in the controller's frame. SDL's gamepad sensor convention names
/// that frame: x to the right, y up out of the face (the buttons' side), z toward the player, with SDL's accelerometer
/// reading the specific force (+1 g on y for a controller lying face up). DSU's values are SDL's with the
/// accelerometer negated on every axis (-1 g on y lying face up), pitch and roll negated, yaw kept.
///
/// tilt's device frame meets the controller's with the controller lying face up, its top edge away from the player,
/// as a phone lies on a table: device x is the controller's x (right), device y is the controller's −z (away from
/// the player), device z is the controller's y (up, out of the face). A tablet tiltd serves is a controller held the
/// same way; a controller tiltd reads is a device lying so.
package enum DSUAxes {
    /// The DSU motion for a sample: specific force `accel` (m/s²) and angular rate `gyro` (rad/s), both in tilt's
    /// device frame, taken at `timestamp` microseconds.
    package static func motion(accel: Vector3, gyro: Vector3, timestamp: UInt64) -> DSUPacket.Motion {
        // The controller's (SDL's) frame: x = device x, y = device z, z = −device y.
        let g = standardGravity
        let degrees = 180 / Double.pi
        return DSUPacket.Motion(
            timestamp: timestamp,
            accel: SIMD3(Float(-accel.x / g), Float(-accel.z / g), Float(accel.y / g)),
            gyro: SIMD3(Float(-gyro.x * degrees), Float(gyro.z * degrees), Float(gyro.y * degrees)))
    }

    /// The device-frame specific force (m/s²) and angular rate (rad/s) a DSU motion carries: ``motion(accel:gyro:timestamp:)``
    /// undone.
    package static func deviceFrame(_ motion: DSUPacket.Motion) -> (accel: Vector3, gyro: Vector3) {
        let g = standardGravity
        let radians = Double.pi / 180
        let a = motion.accel
        let w = motion.gyro
        return (
            Vector3(-Double(a.x) * g, Double(a.z) * g, -Double(a.y) * g),
            Vector3(-Double(w.x) * radians, Double(w.z) * radians, Double(w.y) * radians)
        )
    }
}
