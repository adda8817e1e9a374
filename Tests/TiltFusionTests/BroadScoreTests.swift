import Testing
import TiltCore
import TiltFusion

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite struct BroadScoreTests {
    /// Some varied reference orientations.
    private static let truth: [Quaternion] = (0..<50).map { k in
        let t = Double(k) * 0.1
        return Quaternion(rotationVector: Vector3(0.5 * sin(t), 0.3 * cos(1.7 * t), 2 * t))
    }

    private static func deg(_ d: Double) -> Double { d * .pi / 180 }

    @Test func knownInclinationOffsetGivesThatRMSE() {
        // A constant 2° error about the earth x axis: inclination and total 2°, heading 0.
        let error = Quaternion(axis: .unitX, angle: Self.deg(2))
        let estimates = Self.truth.map { error * $0 }
        let s = BroadScore.score(estimates: estimates, truth: Self.truth, movement: nil, removeHeadingOffset: false)
        #expect(abs(s.total - 2) < 1e-9)
        #expect(abs(s.inclination - 2) < 1e-9)
        #expect(abs(s.heading) < 1e-9)
        #expect(s.count == 50)
    }

    @Test func headingOffsetCountsIn9DAndIsRemovedIn6D() {
        let error = Quaternion(axis: .unitZ, angle: Self.deg(-5)) * Quaternion(axis: .unitY, angle: Self.deg(1))
        let estimates = Self.truth.map { error * $0 }
        let nine = BroadScore.score(estimates: estimates, truth: Self.truth, movement: nil, removeHeadingOffset: false)
        #expect(nine.heading > 4.9 && nine.heading < 5.1)
        #expect(nine.total > 5)
        let six = BroadScore.score(estimates: estimates, truth: Self.truth, movement: nil, removeHeadingOffset: true)
        #expect(abs(six.heading) < 1e-6)
        #expect(abs(six.total - 1) < 1e-6)
        #expect(abs(six.inclination - nine.inclination) < 1e-9)
    }

    @Test func headingOffsetIsAveragedOnTheCircle() {
        // Offsets of +179° and −179° average to 180°, leaving 1° each; a linear mean would give 0° and leave 179°.
        let estimates = Self.truth.enumerated().map { k, q in
            Quaternion(axis: .unitZ, angle: Self.deg(k.isMultiple(of: 2) ? 179 : -179)) * q
        }
        let s = BroadScore.score(estimates: estimates, truth: Self.truth, movement: nil, removeHeadingOffset: true)
        #expect(abs(s.heading - 1) < 1e-6)
        #expect(abs(s.total - 1) < 1e-6)
    }

    @Test func onlyMovementRowsWithKnownTruthAreScored() {
        // Rows outside movement or without a reference carry a 90° error that must not count.
        var estimates = Self.truth
        var truth: [Quaternion?] = Self.truth
        var movement = [Bool](repeating: true, count: estimates.count)
        let bad = Quaternion(axis: .unitX, angle: .pi / 2)
        for k in 0..<10 {
            estimates[k] = bad * estimates[k]
            movement[k] = false
        }
        for k in 10..<20 {
            estimates[k] = bad * estimates[k]
            truth[k] = nil
        }
        let s = BroadScore.score(estimates: estimates, truth: truth, movement: movement, removeHeadingOffset: false)
        #expect(s.count == 30)
        #expect(s.total < 1e-6)
    }

    @Test func signOfTheQuaternionDoesNotMatter() {
        let estimates = Self.truth.map { Quaternion(w: -$0.w, x: -$0.x, y: -$0.y, z: -$0.z) }
        let s = BroadScore.score(estimates: estimates, truth: Self.truth, movement: nil, removeHeadingOffset: true)
        #expect(s.total < 1e-6 && s.heading < 1e-6 && s.inclination < 1e-6)
    }

    @Test func noScoredRowsGivesNaN() {
        let s = BroadScore.score(estimates: [], truth: [], movement: nil, removeHeadingOffset: false)
        #expect(s.count == 0)
        #expect(s.total.isNaN)
    }
}
