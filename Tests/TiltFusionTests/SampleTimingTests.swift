import Testing
import TiltCore
import TiltTestKit

@testable import TiltFusion

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The filter's timing: the sensor's own delay, and sample rates from a laptop accelerometer's to a research IMU's.
@Suite struct SampleTimingTests {
    /// A sensor whose readings trail the motion by 2 ms (its on-chip filter), turning at about 230 °/s about a
    /// horizontal axis: reported as integrated, the orientation trails the truth at the sample's time by that turn
    /// (0.46°); carried ahead by `sensorDelay`, it does not.
    @Test func sensorDelayCarriesTheOrientationToTheSampleTime() {
        var motion = SyntheticMotion()
        motion.rate = 500
        motion.angularVelocity = { t in Vector3(4 + 0.5 * sin(0.9 * t), 0.3 * sin(1.7 * t), 0.2 * cos(1.1 * t)) }
        let (clean, truth) = motion.generate(duration: 20)
        // Each sample carries the readings of the one before it (2 ms earlier), stamped with its own time.
        var delayed = clean
        for i in 1..<clean.count {
            delayed[i] = MotionSample(
                time: clean[i].time, gyro: clean[i - 1].gyro, accel: clean[i - 1].accel, mag: clean[i - 1].mag)
        }
        func meanTiltError(_ samples: [MotionSample], sensorDelay: Double) -> Double {
            var filter = AttitudeFilter(configuration: .init(useMagnetometer: false, sensorDelay: sensorDelay))
            var sum = 0.0
            var count = 0.0
            for (i, s) in samples.enumerated() {
                filter.fuse(s)
                #expect(abs(filter.quaternion.norm - 1) < 1e-9)
                if s.time >= 10 {
                    sum += inclinationError(filter.quaternion, truth[i])
                    count += 1
                }
            }
            return sum / count
        }
        let uncompensated = meanTiltError(delayed, sensorDelay: 0)
        let compensated = meanTiltError(delayed, sensorDelay: 0.002)
        let undelayed = meanTiltError(clean, sensorDelay: 0)
        #expect(uncompensated > 0.3, "a 2 ms delay at 230 °/s: \(uncompensated)°")
        #expect(compensated < uncompensated / 3, "carried ahead: \(compensated)°, as integrated: \(uncompensated)°")
        // Carried ahead over a delay the readings do not have, it leads the truth as far as it trailed it.
        let overshoot = meanTiltError(clean, sensorDelay: 0.002)
        #expect(undelayed < compensated + 0.1 && overshoot > 0.3, "\(undelayed)°, \(overshoot)°")
    }

    /// From 10 Hz (a laptop's accelerometer polled by iio-sensor-proxy) to 1 kHz: the block of samples the
    /// corrections run on stays within 60 ms and 16 samples, the tilt is right, and the magnetometer's heading
    /// converges without a step larger than its bounded rate allows.
    @Test(arguments: [(10.0, 1), (50.0, 3), (100.0, 6), (285.714, 16), (1000.0, 16)])
    func everySampleRateGetsItsBlockAndHolds(rate: Double, blockLength: Int) {
        var motion = SyntheticMotion()
        motion.rate = rate
        motion.angularVelocity = { t in Vector3(0.3 * sin(0.4 * t), 0.2 * cos(0.3 * t), 0.25) }
        let (samples, truth) = motion.generate(duration: 40)
        let configuration = AttitudeFilter.Configuration()
        var filter = AttitudeFilter(configuration: configuration)
        var worstTilt = 0.0
        var worstHeading = 0.0
        var largestStep = 0.0
        var previous: Double?
        for (i, s) in samples.enumerated() {
            filter.fuse(s)
            let q = filter.quaternion
            if s.time >= 10 { worstTilt = max(worstTilt, inclinationError(q, truth[i])) }
            let heading = headingError(q, truth[i])
            if s.time >= 20 {
                worstHeading = max(worstHeading, heading)
                if let previous { largestStep = max(largestStep, abs(heading - previous)) }
            }
            previous = heading
        }
        #expect(filter.blockLength == blockLength)
        // At 10 Hz a sample spans 0.1 s of turning, and integrating it as one step errs by a fraction of a degree.
        let tiltBound = rate >= 50 ? 0.4 : 1.2
        let headingBound = rate >= 50 ? 0.6 : 2
        #expect(worstTilt < tiltBound, "\(rate) Hz: worst inclination error \(worstTilt)°")
        #expect(worstHeading < headingBound, "\(rate) Hz: worst heading error \(worstHeading)°")
        // A step: the bounded correction per sample, plus the gyroscope's and the field's noise.
        let bound = configuration.magMaxHeadingRate / rate * 180 / .pi + 0.05
        #expect(largestStep < bound, "\(rate) Hz: largest heading step \(largestStep)° (bound \(bound)°)")
    }
}
