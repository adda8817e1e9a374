import Testing
import TiltCore
import TiltFusion
import TiltTestKit

/// The daemon's 6D pipeline, started beside its 9D one.
@Suite struct PipelineBesideTests {
    @Test("a pipeline started beside another takes its gyroscope bias and, adopting its tare, tilts alike")
    func startsBesideAnother() {
        var motion = SyntheticMotion()
        motion.gyroBias = Vector3(0.01, -0.02, 0.005)
        // Tipped before the 6D one starts (so its own first pose is not the 9D one's reference), and again after.
        motion.angularVelocity = { t in (t >= 5 && t < 5.5) || (t >= 20 && t < 20.5) ? Vector3(0.4, 0.2, 0) : .zero }
        let samples = motion.generate(duration: 30).samples
        var nine = MotionPipeline()
        var six = MotionPipeline?.none
        var sixConfiguration = MotionPipeline.Configuration()
        sixConfiguration.filter.useMagnetometer = false
        var worst = 0.0
        for sample in samples {
            let a = nine.process(sample, source: "t")
            if sample.time >= 15, six == nil {
                six = MotionPipeline(configuration: sixConfiguration, beside: nine)
                #expect(six?.filter.gyroBias == nine.filter.gyroBias)
                #expect((nine.filter.gyroBias - Vector3(0.01, -0.02, 0.005)).norm < 0.005, "the 9D one learnt it")
                _ = six?.process(sample, source: "t")
                six?.adoptReference(of: nine)
                continue
            }
            guard var p = six else { continue }
            let b = p.process(sample, source: "t")
            six = p
            if sample.time > 16 { worst = max(worst, abs(a.tilt.x - b.tilt.x), abs(a.tilt.y - b.tilt.y)) }
        }
        #expect(worst < 0.02, "the 6D tilt follows the 9D one from the same pose: \(worst) rad apart at most")
    }
}
