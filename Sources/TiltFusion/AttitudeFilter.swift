#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TiltCore

/// The attitude filter (AHRS): fuses gyroscope, accelerometer and, when present, magnetometer samples into the
/// device → earth (ENU) orientation, one sample at a time, causally, as the daemon runs it.
///
/// It runs 9D when a sample carries a magnetometer reading and the configuration allows it, 6D otherwise
/// (heading then follows the gyroscope alone).
public struct AttitudeFilter: Sendable {
    /// Filter parameters. The defaults are the product's defaults; they are not tuned to any one recording.
    public struct Configuration: Sendable, Hashable {
        /// Use magnetometer readings when samples carry them.
        public var useMagnetometer: Bool
        /// Proportional gain of the accelerometer correction, 1/s.
        public var accelGain: Double
        /// Integral gain of the gyroscope bias estimate, 1/s².
        public var biasGain: Double
        /// Gain of the heading correction from the magnetometer, 1/s.
        public var magGain: Double
        /// Gains are raised by this factor for the first `initialPeriod` seconds, for fast convergence.
        public var initialBoost: Double
        /// Length of the initial, fast-converging period, s.
        public var initialPeriod: Double

        public init(
            useMagnetometer: Bool = true, accelGain: Double = 1.0, biasGain: Double = 0.02, magGain: Double = 0.5,
            initialBoost: Double = 10, initialPeriod: Double = 1.0
        ) {
            self.useMagnetometer = useMagnetometer
            self.accelGain = accelGain
            self.biasGain = biasGain
            self.magGain = magGain
            self.initialBoost = initialBoost
            self.initialPeriod = initialPeriod
        }
    }

    public var configuration: Configuration

    /// The current device → earth orientation.
    public private(set) var quaternion: Quaternion = .identity
    /// The current gyroscope bias estimate, rad/s, in the device frame.
    public private(set) var gyroBias: Vector3 = .zero

    private var startTime: Double?
    private var lastTime: Double?
    private var restTime: Double = 0

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    /// Forgets the orientation and bias; the next sample initialises the filter again.
    public mutating func reset() {
        quaternion = .identity
        gyroBias = .zero
        startTime = nil
        lastTime = nil
        restTime = 0
    }

    /// Feeds one sample and returns the estimate after it.
    ///
    /// Degenerate input never produces NaN: a non-finite or zero vector is ignored, a repeated or backwards
    /// timestamp integrates nothing, and a gap longer than one second integrates nothing either (the gyroscope
    /// cannot be trusted across it); the accelerometer then re-anchors tilt.
    public mutating func update(_ sample: MotionSample) -> AttitudeEstimate {
        let useMag = configuration.useMagnetometer
        let mag = useMag ? sample.mag.flatMap { $0.isFinite && $0.norm > 0 ? $0 : nil } : nil
        let accel = sample.accel.isFinite ? sample.accel : .zero
        let gyro = sample.gyro.isFinite ? sample.gyro : .zero

        guard let start = startTime, let last = lastTime else {
            if let up = accel.normalized {
                initialise(up: up, mag: mag)
                startTime = sample.time.isFinite ? sample.time : 0
                lastTime = startTime
            }
            return estimate(sample: sample, gyro: gyro, accel: accel, rest: false, accelDisturbed: false, magDisturbed: false, initializing: true)
        }
        var dt = sample.time.isFinite ? sample.time - last : 0
        if sample.time.isFinite, sample.time > last { lastTime = sample.time }
        if dt <= 0 || dt > 1 { dt = 0 }
        let initializing = (lastTime ?? start) - start < configuration.initialPeriod
        let boost = initializing ? configuration.initialBoost : 1

        let norm = accel.norm
        let accelDisturbed = norm == 0 || abs(norm - standardGravity) > 0.1 * standardGravity
        let rate = gyro - gyroBias
        let resting = rate.norm < 0.05 && abs(norm - standardGravity) < 0.03 * standardGravity
        restTime = resting ? restTime + dt : 0

        var omega = rate
        if !accelDisturbed, let a = accel.normalized {
            let v = quaternion.inverseRotate(.unitZ)
            let e = a.cross(v)
            omega += e * (configuration.accelGain * boost)
            if dt > 0 { gyroBias -= e * (configuration.biasGain * boost * dt) }
        }
        if dt > 0 {
            quaternion = (quaternion * Quaternion(rotationVector: omega * dt)).normalized
        }

        var magDisturbed = false
        if let m = mag {
            let h = quaternion.rotate(m)
            let horizontal = (h.x * h.x + h.y * h.y).squareRoot()
            magDisturbed = horizontal < 1e-6
            if !magDisturbed, dt > 0 {
                let err = atan2(h.x, h.y)
                let step = max(-1, min(1, configuration.magGain * boost * dt)) * err
                quaternion = (Quaternion(axis: .unitZ, angle: step) * quaternion).normalized
            }
        }
        return estimate(
            sample: sample, gyro: gyro, accel: accel, rest: restTime > 0.5, accelDisturbed: accelDisturbed,
            magDisturbed: magDisturbed, initializing: initializing)
    }

    private mutating func initialise(up: Vector3, mag: Vector3?) {
        // Tilt: the rotation taking the measured up direction (device frame) to earth up.
        var q = Quaternion(from: up, to: .unitZ)
        if let m = mag {
            let h = q.rotate(m)
            if (h.x * h.x + h.y * h.y) > 0 {
                q = Quaternion(axis: .unitZ, angle: atan2(h.x, h.y)) * q
            }
        }
        quaternion = q.normalized
    }

    private func estimate(
        sample: MotionSample, gyro: Vector3, accel: Vector3, rest: Bool, accelDisturbed: Bool, magDisturbed: Bool,
        initializing: Bool
    ) -> AttitudeEstimate {
        let gravity = quaternion.inverseRotate(Vector3(0, 0, -standardGravity))
        return AttitudeEstimate(
            quaternion: quaternion,
            rotationRate: gyro - gyroBias,
            gravity: gravity,
            userAcceleration: accel + gravity,
            gyroBias: gyroBias,
            flags: AttitudeFrame.Flags(
                initializing: initializing, rest: rest, accelDisturbed: accelDisturbed, magDisturbed: magDisturbed))
    }
}

/// The filter's output for one sample.
public struct AttitudeEstimate: Sendable, Hashable {
    /// Device → earth (ENU) orientation.
    public var quaternion: Quaternion
    /// Bias-corrected angular rate, device frame, rad/s.
    public var rotationRate: Vector3
    /// Gravity in the device frame, m/s².
    public var gravity: Vector3
    /// Specific force minus gravity's share: the device's own acceleration, device frame, m/s².
    public var userAcceleration: Vector3
    /// Gyroscope bias estimate, rad/s.
    public var gyroBias: Vector3
    public var flags: AttitudeFrame.Flags

    public init(
        quaternion: Quaternion, rotationRate: Vector3, gravity: Vector3, userAcceleration: Vector3, gyroBias: Vector3,
        flags: AttitudeFrame.Flags
    ) {
        self.quaternion = quaternion
        self.rotationRate = rotationRate
        self.gravity = gravity
        self.userAcceleration = userAcceleration
        self.gyroBias = gyroBias
        self.flags = flags
    }
}
