import Testing
import TiltCore
import TiltTestKit

@testable import TiltFusion

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Inclination (tilt) error between two orientations, degrees.
func inclinationError(_ estimate: Quaternion, _ truth: Quaternion) -> Double {
    BroadScore.angles(of: estimate * truth.conjugate).inclination * 180 / .pi
}

/// Heading error between two orientations, degrees.
func headingError(_ estimate: Quaternion, _ truth: Quaternion) -> Double {
    BroadScore.angles(of: estimate * truth.conjugate).heading * 180 / .pi
}

@Suite struct AttitudeFilterTests {
    @Test func constantGyroBiasIsRecoveredAtRest() {
        var motion = SyntheticMotion()
        motion.gyroBias = Vector3(0.02, -0.015, 0.03)
        motion.initial = Quaternion(axis: Vector3(1, 2, 0), angle: 0.4)
        let (samples, _) = motion.generate(duration: 20)
        var filter = AttitudeFilter()
        var last: AttitudeEstimate?
        for s in samples { last = filter.update(s) }
        let error = filter.gyroBias - motion.gyroBias
        #expect(abs(error.x) < 0.005 && abs(error.y) < 0.005 && abs(error.z) < 0.005, "bias error \(error)")
        #expect(last?.flags.rest == true)
        #expect(abs(last!.rotationRate.norm) < 0.01)
    }

    @Test(arguments: [true, false])
    func ninetyDegreeWrongStartConvergesWithinThreeSeconds(useMagnetometer: Bool) {
        // For its first 0.1 s the device reports lying on its side (a 90° wrong start: it was being put down),
        // then it lies flat and turns slowly about the vertical.
        var motion = SyntheticMotion()
        motion.angularVelocity = { t in Vector3(0, 0, t < 0.1 ? 0 : 0.2) }
        let (samples, truth) = motion.generate(duration: 6)
        var wrong = SyntheticMotion()
        wrong.initial = Quaternion(axis: .unitX, angle: .pi / 2)
        let (wrongSamples, _) = wrong.generate(duration: 0.1)
        var filter = AttitudeFilter(configuration: .init(useMagnetometer: useMagnetometer))
        var worstAfter3s = 0.0
        for (i, s) in samples.enumerated() {
            let input = i < wrongSamples.count ? wrongSamples[i] : s
            let q = filter.update(input).quaternion
            #expect(q.isFinite)
            // The inclination is corrected once per block (60 ms at most): from the first correction after 3 s.
            if s.time >= 3 + AttitudeFilter.longestBlock {
                worstAfter3s = max(worstAfter3s, inclinationError(q, truth[i]))
            }
        }
        #expect(worstAfter3s < 2, "inclination error after 3 s: \(worstAfter3s)°")
    }

    @Test func wrongHeadingStartConvergesIn9D() {
        // The first 0.1 s see a field turned 90°; afterwards the true one.
        var motion = SyntheticMotion()
        motion.magneticDisturbance = { t in t < 0.1 ? Vector3(20, -20, 0) : .zero }
        let (samples, truth) = motion.generate(duration: 12)
        var filter = AttitudeFilter()
        var worst = 0.0
        for (i, s) in samples.enumerated() {
            let q = filter.update(s).quaternion
            if s.time >= 3 { worst = max(worst, headingError(q, truth[i])) }
        }
        #expect(worst < 5, "heading error after 3 s: \(worst)°")
    }

    @Test func fastTranslationDoesNotTilt() {
        // Vigorous horizontal and vertical shaking (±10 m/s² at 2 Hz and ±5 m/s² at 3.3 Hz) while turning gently.
        var motion = SyntheticMotion()
        motion.initial = Quaternion(axis: .unitY, angle: 0.3)
        motion.angularVelocity = { t in Vector3(0.2 * sin(0.5 * t), 0.1, 0.3 * cos(0.3 * t)) }
        motion.linearAcceleration = { t in
            Vector3(10 * sin(2 * .pi * 2 * t), 6 * cos(2 * .pi * 1.3 * t), 5 * sin(2 * .pi * 3.3 * t))
        }
        let (samples, truth) = motion.generate(duration: 30)
        var filter = AttitudeFilter()
        var worst = 0.0
        var disturbed = 0
        for (i, s) in samples.enumerated() {
            let e = filter.update(s)
            if e.flags.accelDisturbed { disturbed += 1 }
            // From the end of the initial averaging on (the first sample alone cannot tell motion from tilt).
            if s.time >= 3 { worst = max(worst, inclinationError(e.quaternion, truth[i])) }
        }
        #expect(worst < 3, "worst inclination error \(worst)°")
        #expect(disturbed > 0)
    }

    @Test func magneticDisturbanceIsRejectedAndFlagged() {
        // Turning slowly about the vertical; from 20 s to 40 s a magnet adds 40 µT pointing east.
        var motion = SyntheticMotion()
        motion.angularVelocity = { _ in Vector3(0, 0, 0.3) }
        motion.magneticDisturbance = { t in t >= 20 && t < 40 ? Vector3(40, 0, 10) : .zero }
        let (samples, truth) = motion.generate(duration: 60)
        var filter = AttitudeFilter()
        var worst = 0.0
        var flagged = 0
        for (i, s) in samples.enumerated() {
            let e = filter.update(s)
            if s.time >= 20.5 && s.time < 40 && e.flags.magDisturbed { flagged += 1 }
            if s.time >= 5 { worst = max(worst, headingError(e.quaternion, truth[i])) }
        }
        #expect(worst < 3, "worst heading error \(worst)°")
        #expect(flagged > 19 * 200 * 9 / 10)
    }

    @Test func runs6DWithoutMagnetometer() {
        var motion = SyntheticMotion()
        motion.magneticField = nil
        motion.angularVelocity = { t in Vector3(0.3 * sin(t), 0.2, 0) }
        let (samples, truth) = motion.generate(duration: 20)
        var filter = AttitudeFilter()
        var worst = 0.0
        for (i, s) in samples.enumerated() {
            let e = filter.update(s)
            #expect(!e.flags.magDisturbed)
            if s.time >= 3 { worst = max(worst, inclinationError(e.quaternion, truth[i])) }
        }
        #expect(worst < 1, "worst inclination error \(worst)°")
    }

    @Test func degenerateInputNeverProducesNaN() {
        let g = Vector3(0, 0, standardGravity)
        let field = Vector3(0, 20, -40)
        var samples: [MotionSample] = []
        // Zero and non-finite acceleration first (nothing to initialise from), then normal samples.
        samples.append(MotionSample(time: 0, gyro: .zero, accel: .zero, mag: field))
        samples.append(MotionSample(time: 0.005, gyro: .zero, accel: Vector3(.nan, 0, 0), mag: nil))
        for k in 2..<200 { samples.append(MotionSample(time: Double(k) * 0.005, gyro: .zero, accel: g, mag: field)) }
        // Zero acceleration (free fall) for a while.
        for k in 200..<400 {
            samples.append(MotionSample(time: Double(k) * 0.005, gyro: Vector3(0.1, 0, 0), accel: .zero, mag: field))
        }
        // A saturated gyroscope.
        for k in 400..<600 {
            samples.append(MotionSample(time: Double(k) * 0.005, gyro: Vector3(35, -35, 35), accel: g, mag: field))
        }
        // Repeated and backwards timestamps.
        for _ in 0..<50 { samples.append(MotionSample(time: 3, gyro: Vector3(1, 0, 0), accel: g, mag: field)) }
        for k in 0..<50 {
            samples.append(MotionSample(time: 2 - Double(k) * 0.01, gyro: .zero, accel: g, mag: field))
        }
        // A gap of five seconds, then more samples; infinities and NaN in every field; a zero magnetometer.
        for k in 0..<200 {
            samples.append(MotionSample(time: 8 + Double(k) * 0.005, gyro: .zero, accel: g, mag: .zero))
        }
        samples.append(
            MotionSample(
                time: 9.1, gyro: Vector3(.infinity, 0, 0), accel: Vector3(0, .infinity, 0), mag: Vector3(.nan, 0, 0)))
        samples.append(MotionSample(time: .nan, gyro: .zero, accel: g, mag: field))
        samples.append(MotionSample(time: .infinity, gyro: .zero, accel: g, mag: field))
        for k in 0..<400 {
            samples.append(MotionSample(time: 9.2 + Double(k) * 0.005, gyro: .zero, accel: g, mag: field))
        }

        for useMagnetometer in [true, false] {
            var filter = AttitudeFilter(configuration: .init(useMagnetometer: useMagnetometer))
            var allFinite = true
            var last: AttitudeEstimate?
            for s in samples {
                let e = filter.update(s)
                allFinite =
                    allFinite && e.quaternion.isFinite && abs(e.quaternion.norm - 1) < 1e-6 && e.gravity.isFinite
                    && e.gyroBias.isFinite && e.userAcceleration.isFinite
                last = e
            }
            #expect(allFinite)
            // Flat at the end, whatever happened before.
            #expect(inclinationError(last!.quaternion, .identity) < 5)
        }
    }

    @Test func gyroBiasIsLearnedInMotion() {
        // Never at rest: a slow tumble about changing axes for three minutes, with a bias on every axis. The
        // accelerometer sees the horizontal components, the magnetometer the vertical one.
        var motion = SyntheticMotion()
        motion.gyroBias = Vector3(0.01, -0.012, 0.008)
        motion.angularVelocity = { t in Vector3(0.4 * sin(0.31 * t), 0.35 * cos(0.23 * t), 0.3 * sin(0.17 * t + 1)) }
        let (samples, truth) = motion.generate(duration: 180)
        var filter = AttitudeFilter()
        var rested = false
        var worst = 0.0
        for (i, s) in samples.enumerated() {
            let e = filter.update(s)
            rested = rested || e.flags.rest
            if s.time > 120 { worst = max(worst, inclinationError(e.quaternion, truth[i])) }
        }
        #expect(!rested)
        let error = filter.gyroBias - motion.gyroBias
        // The motion estimate is deliberately slow (60 s): after three minutes at least 60 % of the bias is learned
        // (|bias| = 0.018 rad/s), which keeps the tilt within 2° although the device never rests.
        #expect(error.norm < 0.4 * motion.gyroBias.norm, "bias error \(error)")
        #expect(worst < 2, "worst inclination error \(worst)°")
    }

    @Test func gyroScaleErrorIsLearnedInFastRotation() {
        // A sustained fast tumble (about 2 rad/s, mostly about the device's x axis, which points along earth x) with a
        // gyroscope whose x axis reads 2 % high. Unlearned, the almost-inertial frame turns 2.3 °/s about x and the
        // accelerometer's low-pass trails it by degrees; learned, the tilt stays within a degree.
        var motion = SyntheticMotion()
        motion.angularVelocity = { t in Vector3(2.0 + 0.5 * sin(0.7 * t), 0.4 * sin(1.3 * t), 0.3 * cos(0.9 * t)) }
        let (clean, truth) = motion.generate(duration: 60)
        let samples = clean.map { s in
            MotionSample(time: s.time, gyro: Vector3(s.gyro.x * 1.02, s.gyro.y, s.gyro.z), accel: s.accel, mag: s.mag)
        }
        func worstTilt(_ configuration: AttitudeFilter.Configuration) -> (Double, AttitudeFilter) {
            var filter = AttitudeFilter(configuration: configuration)
            var worst = 0.0
            for (i, s) in samples.enumerated() {
                let q = filter.update(s).quaternion
                #expect(q.isFinite)
                if s.time >= 40 { worst = max(worst, inclinationError(q, truth[i])) }
            }
            return (worst, filter)
        }
        let (learned, filter) = worstTilt(.init(useMagnetometer: false))
        let (unlearned, _) = worstTilt(.init(useMagnetometer: false, scaleTimeConstant: 0))
        #expect(learned < 1, "worst inclination error with scale learning \(learned)°")
        #expect(unlearned > 2 * learned, "without scale learning \(unlearned)°, with \(learned)°")
        #expect(abs(filter.gyroScaleError.x - 0.02) < 0.008, "scale error estimate \(filter.gyroScaleError)")
    }

    @Test func resetForgetsEverything() {
        var motion = SyntheticMotion()
        motion.gyroBias = Vector3(0.01, 0, 0)
        let (samples, _) = motion.generate(duration: 10)
        var filter = AttitudeFilter()
        for s in samples { _ = filter.update(s) }
        #expect(filter.gyroBias.norm > 0)
        filter.reset()
        #expect(filter.gyroBias == .zero)
        #expect(filter.gyroScaleError == .zero)
        #expect(filter.quaternion == .identity)
    }
}
