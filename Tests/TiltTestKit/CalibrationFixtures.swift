import Foundation
import TiltCore
import TiltSensors

/// Samples with known sensor errors for calibration tests, and a way to run the `tilt` command.
public enum CalibrationFixtures {
    /// What ideal sensors read at time `t`; noise is added by ``samples(duration:rate:seed:noise:truth:)``.
    public typealias Truth = @Sendable (Double) -> (gyro: Vector3, accel: Vector3, mag: Vector3?)

    /// Noise standard deviations: gyroscope rad/s, accelerometer m/s², magnetometer µT.
    public struct Noise: Sendable {
        public var gyro: Double
        public var accel: Double
        public var mag: Double
        public init(gyro: Double = 0.002, accel: Double = 0.02, mag: Double = 0.3) {
            self.gyro = gyro
            self.accel = accel
            self.mag = mag
        }
    }

    /// `duration` seconds at `rate` Hz of `truth` plus deterministic Gaussian noise.
    public static func samples(
        duration: Double, rate: Double = 100, seed: UInt64 = 7, noise: Noise = .init(), truth: Truth
    ) -> [MotionSample] {
        var random = NoiseSource(seed: seed)
        return (0..<Int((duration * rate).rounded())).map { k in
            let t = Double(k) / rate
            let v = truth(t)
            return MotionSample(
                time: t, gyro: v.gyro + random.vector(noise.gyro), accel: v.accel + random.vector(noise.accel),
                mag: v.mag.map { $0 + random.vector(noise.mag) })
        }
    }

    /// Writes `samples` as a sensor log (`device=` names the sensor, as `tilt record` does).
    public static func writeLog(_ samples: [MotionSample], to path: String, device: String = "bmi160") throws {
        let writer = try SensorLogWriter(
            path: path, metadata: [("sampling_rate_hz", "100"), ("device", device)],
            hasMagnetometer: samples.first?.mag != nil)
        for s in samples { try writer.append(s) }
        try writer.close()
    }

    /// A six-position recording: `seconds` still per face (`+z, −z, +y, −y, +x, −x` up), with one-second turns
    /// between; the accelerometer reads `M⁻¹·(g·up) + offset`.
    package static func sixPositions(
        offset: Vector3, inverseMatrix: Matrix3, seconds: Double = 3, noise: Noise = .init()
    ) -> [MotionSample] {
        let ups = [Vector3.unitZ, -.unitZ, .unitY, -.unitY, .unitX, -.unitX]
        let segment = seconds + 1
        return samples(duration: segment * 6, noise: noise) { t in
            let index = min(Int(t / segment), 5)
            let local = t - Double(index) * segment
            let still = ups[index] * standardGravity
            guard local > seconds, index < 5 else {
                return (.zero, inverseMatrix.apply(still) + offset, nil)
            }
            // Turning to the next face: sweep gravity over, with a real angular rate.
            let f = local - seconds
            let next = ups[index + 1] * standardGravity
            let between = (still * (1 - f) + next * f + Vector3(3, 3, 3) * (f * (1 - f)))
            return (Vector3(1.5, -1, 0.5), inverseMatrix.apply(between) + offset, nil)
        }
    }

    /// Magnetometer readings while the device turns through every direction: `S⁻¹·(field·u) + hardIron` for unit
    /// vectors `u` on a spiral over the sphere.
    package static func magneticSweep(
        hardIron: Vector3, inverseSoftIron: Matrix3, field: Double = 45, duration: Double = 30, noise: Noise = .init()
    ) -> [MotionSample] {
        samples(duration: duration, noise: noise) { t in
            let f = t / duration
            let z = 1 - 2 * f
            let r = (1 - z * z).squareRoot()
            let phi = f * 40 * Double.pi
            let u = Vector3(r * cos(phi), r * sin(phi), z)
            return (Vector3(0.3, 0.2, 0.1), Vector3(0, 0, standardGravity), inverseSoftIron.apply(u * field) + hardIron)
        }
    }
}
