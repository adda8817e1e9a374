import Testing
import TiltCore
import TiltFusion
import TiltTestKit

#if canImport(Glibc)
    import Glibc
#endif

/// Scoring one recording in 9D and 6D, as `tilt bench fusion` does, on synthetic motion with a known orientation.
@Suite
struct BroadTrialTests {
    static func motion(magnetometer: Bool) -> (samples: [MotionSample], truth: [Quaternion]) {
        var motion = SyntheticMotion()
        motion.angularVelocity = { t in Vector3(0.4 * sin(0.7 * t), 0.3 * cos(0.5 * t), 0.2) }
        if !magnetometer { motion.magneticField = nil }
        return motion.generate(duration: 20)
    }

    @Test("with a magnetometer both runs are scored and timed; the filter follows the known orientation")
    func nineAndSix() throws {
        let (samples, truth) = Self.motion(magnetometer: true)
        let trial = BroadTrial(
            samples: samples, truth: truth, movement: nil, hasMagnetometer: true, configuration: .init())
        let nine = try #require(trial.nine)
        #expect(nine.count == samples.count)
        #expect(nine.total < 5, "9D RMSE \(nine.total)°")
        #expect(trial.six.inclination < 5, "6D inclination RMSE \(trial.six.inclination)°")
        #expect(trial.fusedSamples == 2 * samples.count)
        #expect(trial.filterSeconds > 0)
    }

    @Test("without a magnetometer only 6D is scored, and only the moving rows count")
    func sixOnly() {
        let (samples, truth) = Self.motion(magnetometer: false)
        let movement = samples.indices.map { $0 % 2 == 0 }
        let trial = BroadTrial(
            samples: samples, truth: truth, movement: movement, hasMagnetometer: false, configuration: .init())
        #expect(trial.nine == nil)
        #expect(trial.six.count == (samples.count + 1) / 2)
        #expect(trial.fusedSamples == samples.count)
    }

    @Test("fuse gives the same estimates as running the filter sample by sample")
    func fuseMatchesTheFilter() {
        let (samples, _) = Self.motion(magnetometer: true)
        var estimates = [Quaternion](repeating: .identity, count: samples.count)
        _ = BroadTrial.fuse(samples, configuration: .init(), into: &estimates)
        var filter = AttitudeFilter(configuration: .init())
        let expected = samples.map { filter.update($0).quaternion }
        #expect(estimates == expected)
    }
}
