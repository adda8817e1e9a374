import Testing
import TiltCore

@testable import TiltFusion

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite struct DisturbanceJudgementTests {
    /// The per-sample judgement compares squared quantities, without a square root of the strength or a division,
    /// and the dip by its sine alone; it must reach the verdict the plain strength-and-dip comparison reaches, for
    /// fields on either side of both tolerances, near the horizon and near the vertical (where the tolerance
    /// reaches past ±90°).
    @Test func judgeAgreesWithTheStrengthAndDipComparison() {
        var random = SeededRandom(seed: 17)
        var agreed = 0
        var disturbed = 0
        for _ in 0..<5000 {
            let referenceNorm = random.uniform(20...70)
            let referenceDip = random.uniform(-1.55...1.55)
            let norm = referenceNorm * random.uniform(0.8...1.2)
            // A dip runs from −90° to 90° (the horizontal strength is never negative).
            let dip = max(-.pi / 2, min(.pi / 2, referenceDip + random.uniform(-0.2...0.2)))
            var plain = MagneticDisturbanceDetector(
                normTolerance: 0.1, dipTolerance: 5 * .pi / 180, newFieldTime: 20, newFieldRotation: 2 * .pi)
            var squared = plain
            let reference = (cos: cos(referenceDip), sin: sin(referenceDip))
            _ = plain.update(norm: referenceNorm, dip: reference, rotationVector: .zero, dt: 0)
            _ = squared.update(norm: referenceNorm, dip: reference, rotationVector: .zero, dt: 0)
            let expected = plain.update(
                norm: norm, dip: (cos: cos(dip), sin: sin(dip)), rotationVector: .zero, dt: 0.01)
            // The reading as `judge` gets it: squared strength and upward component (the dip points down).
            let up = -norm * sin(dip)
            let verdict = squared.judge(squaredNorm: norm * norm, up: up, rotationVector: .zero, dt: 0.01)
            if verdict == expected { agreed += 1 }
            if expected { disturbed += 1 }
        }
        #expect(agreed == 5000)
        // Both verdicts occur often enough for the comparison to mean something.
        #expect(disturbed > 1000 && disturbed < 4000, "\(disturbed) disturbed of 5000")
    }
}
