/// The fused attitude at one instant, as published to subscribers.
///
/// Field meanings and units are part of the wire protocol (see `TiltWire`).
public struct AttitudeFrame: Hashable, Sendable {
    /// Sequence number, increasing by one for each fused sample since the daemon started.
    public var seq: UInt64
    /// Sensor time of the sample, seconds.
    public var time: Double
    /// Device → earth (ENU) rotation, Hamilton.
    public var quaternion: Quaternion
    /// Gravity in the device frame, m/s² (about (0, 0, -9.81) when flat, screen up).
    public var gravity: Vector3
    /// Bias-corrected angular rate in the device frame, rad/s.
    public var rotationRate: Vector3
    /// Acceleration without gravity in the device frame, m/s².
    public var userAcceleration: Vector3
    /// The shaped UI tilt: how far the screen has tipped about its x and y axes from the tare pose, smoothed and
    /// soft-clamped, rad (`TiltShaper`, docs/coordinates.md).
    public var tilt: Tilt
    public var flags: Flags
    /// Where the samples came from, e.g. `replay:trial.csv` or `iio:bmi160`.
    public var source: String
    /// When the sample entered the daemon, seconds on the daemon's `CLOCK_MONOTONIC`, if known.
    ///
    /// `CLOCK_MONOTONIC` is system-wide, so a client on the same machine measures a frame's latency as its own
    /// monotonic receive time minus this.
    public var mono: Double?
    /// The axes of `gravity`, `rotationRate`, `userAcceleration` and `tilt`: the device's (``ScreenRotation/normal``)
    /// or a turned picture's (``ScreenRotation``); the wire's `axes`.
    public var axes: ScreenRotation = .normal
    /// 9D or 6D attitude, if said; the wire's `reference`.
    public var reference: AttitudeReference?
    /// How far the heading may be off, degrees (about one standard deviation), as the filter judges it: small while
    /// the magnetometer corrects it, growing while heading is held on the gyroscope (`magDisturbed`); `nil` when
    /// unknown (6D, where heading is free, or an older daemon). The wire's `headingAccuracy`.
    public var headingAccuracy: Double?
    /// How far ahead of `time` the attitude fields (quaternion, Euler angles, gravity, tilt) are predicted, seconds;
    /// `nil` for a frame as fused. The wire's `predicted` (issue 30).
    public var predicted: Double?

    public init(
        seq: UInt64, time: Double, quaternion: Quaternion, gravity: Vector3, rotationRate: Vector3,
        userAcceleration: Vector3, tilt: Tilt, flags: Flags, source: String, mono: Double? = nil
    ) {
        self.seq = seq
        self.time = time
        self.quaternion = quaternion
        self.gravity = gravity
        self.rotationRate = rotationRate
        self.userAcceleration = userAcceleration
        self.tilt = tilt
        self.flags = flags
        self.source = source
        self.mono = mono
    }

    /// Euler angles of `quaternion`, intrinsic Z-Y-X.
    public var euler: EulerAngles { quaternion.euler }

    /// The shaped tilt signal, radians.
    public struct Tilt: Hashable, Sendable {
        /// About the screen's x and y axes.
        public var x, y: Double
        public init(x: Double, y: Double) {
            self.x = x
            self.y = y
        }
        public static let zero = Tilt(x: 0, y: 0)
    }

    /// Conditions of the estimate at this instant.
    public struct Flags: Hashable, Sendable {
        /// The filter has not converged yet (first moments after start or reset).
        public var initializing: Bool
        /// The device is at rest (gyro and accelerometer steady).
        public var rest: Bool
        /// The accelerometer is disturbed (translation, tapping, vibration) and is not trusted for tilt.
        public var accelDisturbed: Bool
        /// The magnetic field is disturbed and heading is held on the gyroscope.
        public var magDisturbed: Bool

        public init(
            initializing: Bool = false, rest: Bool = false, accelDisturbed: Bool = false, magDisturbed: Bool = false
        ) {
            self.initializing = initializing
            self.rest = rest
            self.accelDisturbed = accelDisturbed
            self.magDisturbed = magDisturbed
        }
    }
}
