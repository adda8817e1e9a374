import Testing
import TiltCore

@testable import TiltFusion

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite struct HeadingEstimatorTests {
    static let configuration = HeadingEstimator.Configuration(
        timeConstant: 13, maxRate: 2 * .pi / 180, accuracyFloor: 2 * .pi / 180, driftRate: 0.05 * .pi / 180,
        scaleUncertainty: 0.005)

    /// A horizontal field of 20 µT pointing `azimuth` radians east of north, dipping 60° down (earth frame).
    static func field(azimuth: Double) -> Vector3 {
        Vector3(20 * sin(azimuth), 20 * cos(azimuth), -35)
    }

    /// The heading offset's angle about earth up, radians.
    static func angle(_ e: HeadingEstimator) -> Double { 2 * atan2(e.z, e.w) }

    /// Adds a block of `count` readings of `f`, 10 ms apart, and closes it with the identity inclination.
    static func block(_ e: inout HeadingEstimator, _ f: Vector3, count: Int = 6) -> HeadingEstimator.Correction? {
        for _ in 0..<count { e.add(f, dt: 0.01) }
        return e.closeBlock(rowX: Vector3(1, 0, 0), rowY: Vector3(0, 1, 0))
    }

    @Test func startsFromTheFirstReadingsAzimuth() {
        var e = HeadingEstimator(configuration: Self.configuration)
        e.start(field: Self.field(azimuth: 0.7))
        #expect(abs(Self.angle(e) - 0.7) < 1e-12)
        #expect(abs(e.w * e.w + e.z * e.z - 1) < 1e-12)
        #expect(abs(e.accuracy - 5 * Self.configuration.accuracyFloor) < 1e-15)
        // A field with no horizontal part says nothing about the heading.
        var vertical = HeadingEstimator(configuration: Self.configuration)
        vertical.start(field: Vector3(0, 0, -40))
        #expect(vertical.w == 1 && vertical.z == 0 && vertical.accuracy == .pi)
        // A reading along the heading found leaves nothing to correct.
        let c = Self.block(&e, Self.field(azimuth: 0.7))
        #expect(c != nil && abs(c!.turn) < 1e-12 && c!.converged == false)
    }

    @Test func warmUpTakesTheRunningMean() {
        // Without a start, the first block counts fully (the running mean of one block is that block); the next
        // block, as many readings again, half.
        var e = HeadingEstimator(configuration: Self.configuration)
        let first = Self.block(&e, Self.field(azimuth: 0.3))
        #expect(abs(first!.turn - 0.3) < 1e-12)
        e.spread(first!.turn, over: 6)
        e.completeTurn()
        #expect(abs(Self.angle(e) - 0.3) < 1e-12)
        let second = Self.block(&e, Self.field(azimuth: 0.5))
        #expect(abs(second!.turn - 0.1) < 1e-12, "\(second!.turn)")
        // A block without undisturbed readings corrects nothing.
        #expect(Self.block(&e, .zero, count: 0) == nil)
    }

    @Test func convergedStepIsALowPassBoundedInRate() {
        var e = HeadingEstimator(configuration: Self.configuration)
        e.start(field: Self.field(azimuth: 0))
        // Past the warm-up (13 s of readings along the heading).
        for _ in 0..<220 { _ = Self.block(&e, Self.field(azimuth: 0)) }
        #expect(abs(e.accuracy - Self.configuration.accuracyFloor) < 2e-3)
        // A small error: the block's share of it, 0.06 s / 13 s.
        let small = Self.block(&e, Self.field(azimuth: 0.001))
        #expect(small!.converged)
        #expect(abs(small!.turn - 0.001 * 0.06 / 13) < 1e-12, "\(small!.turn)")
        // A large one (a disturbance just ended): 2 °/s at most.
        let large = Self.block(&e, Self.field(azimuth: -1))
        #expect(abs(large!.turn + 2 * .pi / 180 * 0.06) < 1e-12, "\(large!.turn)")
        // The innovation stays large, so the accuracy follows it away from the floor.
        for _ in 0..<600 { _ = Self.block(&e, Self.field(azimuth: -1)) }
        #expect(e.accuracy > 0.5, "\(e.accuracy)")
    }

    @Test func spreadStepsAddUpToTheTurn() {
        // The per-sample steps the filter applies, (stepC, 0, 0, stepS) ⊗ …, reach the heading that completeTurn
        // sets when the block closes.
        var e = HeadingEstimator(configuration: Self.configuration)
        e.turn(by: 0.4)
        for turn in [0.02, -0.3, 2.5] {
            var q = Quaternion(w: e.w, x: 0, y: 0, z: e.z)
            e.spread(turn, over: 16)
            while e.stepsLeft > 0 {
                e.stepsLeft -= 1
                q = AttitudeFilter.headingTimes(q, w: e.stepC, z: e.stepS)
            }
            e.completeTurn()
            #expect(abs(q.w - e.w) < 1e-12 && abs(q.z - e.z) < 1e-12, "\(q) against (\(e.w), \(e.z))")
            #expect(e.pendingTurn == 0)
        }
        #expect(abs(remainder(Self.angle(e) - (0.4 + 0.02 - 0.3 + 2.5), 2 * .pi)) < 1e-12)
    }

    @Test func heldOnTheGyroscopeTheAccuracyDegrades() {
        var e = HeadingEstimator(configuration: Self.configuration)
        e.accuracy = 0.05
        e.hold(time: 10, upTurn: -2)
        #expect(abs(e.accuracy - (0.05 + 0.05 * .pi / 180 * 10 + 0.005 * 2)) < 1e-15)
        for _ in 0..<10_000 { e.hold(time: 10, upTurn: 0) }
        #expect(e.accuracy == .pi)
    }

    @Test func seriesAngleAndCosineMatchTheLibrary() {
        for y in stride(from: -0.099, through: 0.099, by: 0.003) {
            #expect(abs(HeadingEstimator.angle(y, 1) - atan2(y, 1)) < 1e-9)
        }
        #expect(HeadingEstimator.angle(1, -1) == atan2(1, -1))
        for h in stride(from: -0.049, through: 0.049, by: 0.002) {
            let (c, s) = HeadingEstimator.cosineAndSine(h)
            // The cosine's series ends at h⁴ (error h⁶/720 < 3·10⁻¹¹), the sine's at h⁵ (h⁷/5040 < 2·10⁻¹³).
            #expect(abs(c - cos(h)) < 3e-11 && abs(s - sin(h)) < 2e-13)
        }
    }
}
