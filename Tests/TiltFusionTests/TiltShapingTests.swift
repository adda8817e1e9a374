import Testing
import TiltCore
import TiltFusion

@Suite struct TiltShapingTests {
    @Test func softClampIsOddMonotoneAndBounded() {
        let c = SoftClamp(limit: 0.5)
        #expect(c(0) == 0)
        #expect(abs(c(0.01) - 0.01) < 1e-5, "identity near zero")
        var last = -Double.infinity
        // Up to |x| = 3 rad, limit·tanh(x/limit) is still strictly below the limit in floating point.
        for i in -60...60 {
            let x = Double(i) * 0.05
            let y = c(x)
            #expect(abs(y) < 0.5)
            #expect(y > last)
            #expect(abs(c(-x) + y) < 1e-15)
            last = y
        }
        #expect(abs(c(1e6)) <= 0.5 && c(1e6) >= c(3))
        #expect(c(.infinity) == 0.5 && c(-.infinity) == -0.5 && c(.nan) == 0)
    }

    private func settle(_ shaper: inout TiltShaper, _ q: Quaternion, from t0: Double) -> AttitudeFrame.Tilt {
        var tilt = AttitudeFrame.Tilt.zero
        for i in 0..<400 { tilt = shaper.shape(q, at: t0 + Double(i) * 0.01) }
        return tilt
    }

    @Test func firstPoseIsTheReference() {
        var s = TiltShaper()
        let pose = Quaternion(euler: .init(roll: 0.3, pitch: -0.2, yaw: 1.0))
        let t = settle(&s, pose, from: 0)
        #expect(abs(t.x) < 1e-9 && abs(t.y) < 1e-9)
    }

    @Test func tiltIsTheRotationVectorFromTheReference() {
        var s = TiltShaper(configuration: .init(limit: 10))
        let reference = Quaternion(axis: .unitZ, angle: 2.0)
        _ = s.shape(reference, at: 0)
        // Rotate 0.2 rad about the device's own x axis: tilt x → 0.2, y → 0.
        let t = settle(&s, reference * Quaternion(axis: .unitX, angle: 0.2), from: 0.01)
        #expect(abs(t.x - 0.2) < 1e-3 && abs(t.y) < 1e-6)
    }

    @Test func tiltNeverJumpsThroughPi() {
        // Euler yaw wraps at ±π; the rotation-vector tilt about x and y does not care about yaw at all.
        var s = TiltShaper(configuration: .init(limit: 10))
        _ = s.shape(.identity, at: 0)
        var previous: AttitudeFrame.Tilt?
        for i in 1...720 {
            let yaw = Double(i) * .pi / 180
            let q = Quaternion(axis: .unitZ, angle: yaw)
            let t = s.shape(q, at: Double(i) * 0.01)
            #expect(abs(t.x) < 1e-9 && abs(t.y) < 1e-9)
            if let p = previous { #expect(abs(t.x - p.x) < 1e-6) }
            previous = t
        }
    }

    @Test func largeTiltIsSoftClamped() {
        var s = TiltShaper()  // limit 0.5 rad
        _ = s.shape(.identity, at: 0)
        let t = settle(&s, Quaternion(axis: .unitY, angle: 1.2), from: 0.01)
        #expect(t.y > 0.45 && t.y < 0.5)
    }

    @Test func tareRecentres() {
        var s = TiltShaper()
        _ = s.shape(.identity, at: 0)
        let tilted = Quaternion(axis: .unitX, angle: 0.3)
        #expect(settle(&s, tilted, from: 0.01).x > 0.2)
        s.tare()
        let t = settle(&s, tilted, from: 10)
        #expect(abs(t.x) < 1e-9)
    }

    private func same(_ a: Quaternion?, _ b: Quaternion) -> Bool {
        guard let a else { return false }
        return abs(a.w * b.w + a.x * b.x + a.y * b.y + a.z * b.z) > 1 - 1e-12
    }

    @Test func resetTareReturnsToTheFirstReference() throws {
        var s = TiltShaper()
        let first = Quaternion(axis: .unitZ, angle: 0.7)
        _ = s.shape(first, at: 0)
        let tilted = first * Quaternion(axis: .unitX, angle: 0.3)
        let untared = settle(&s, tilted, from: 0.01)
        #expect(untared.x > 0.2)
        s.tare()
        #expect(abs(settle(&s, tilted, from: 10).x) < 1e-9)
        let reset = s.resetTare()
        let restored = try #require(reset)
        #expect(same(restored, first) && same(s.reference, first) && same(s.initialReference, first))
        // The filters restart, so the very next tilt is the un-tared one.
        let back = s.shape(tilted, at: 20)
        #expect(abs(back.x - untared.x) < 1e-9 && abs(back.y - untared.y) < 1e-9)
    }

    @Test func resetTareBeforeTheFirstAttitudeCancelsAPendingTare() {
        var s = TiltShaper()
        s.tare()
        #expect(s.resetTare() == nil)
        let first = Quaternion(axis: .unitY, angle: 0.2)
        _ = s.shape(first, at: 0)
        #expect(same(s.initialReference, first), "the first attitude is still the reference")
        var p = MotionPipeline()
        #expect(p.resetTareNow() == nil)
        let sample = MotionSample(time: 0, gyro: .zero, accel: Vector3(0, 0, standardGravity))
        _ = p.process(sample, source: "test")
        #expect(p.resetTareNow() == p.shaper.initialReference && p.shaper.initialReference != nil)
    }

    @Test func pipelineNumbersFramesAndTares() {
        var p = MotionPipeline()
        let sample = MotionSample(time: 0, gyro: .zero, accel: Vector3(0, 0, standardGravity))
        #expect(p.tareNow() == nil, "no attitude yet: the first pose becomes the reference")
        let f0 = p.process(sample, source: "test")
        var s1 = sample
        s1.time = 0.01
        let f1 = p.process(s1, source: "test")
        #expect(f0.seq == 0 && f1.seq == 1 && f1.source == "test")
        #expect(p.tareNow() != nil)
    }
}
