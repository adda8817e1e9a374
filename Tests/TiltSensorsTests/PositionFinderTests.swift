import Foundation
import Testing
import TiltCore
import TiltSensors
import TiltTestKit

/// The six-position finder on synthetic recordings with a known accelerometer error.
@Suite
struct PositionFinderTests {
    static let offset = Vector3(0.15, -0.08, 0.22)
    static let matrix = Matrix3(rowMajor: [1.02, 0.015, -0.01, 0.012, 0.97, 0.02, -0.008, 0.018, 1.04])!

    /// `seconds` still with `up` pointing up, as an accelerometer with the known error reads it.
    static func still(_ up: Vector3, seconds: Double = 2, seed: UInt64 = 3) -> [MotionSample] {
        let inverse = matrix.inverse!
        return CalibrationFixtures.samples(duration: seconds, seed: seed) { _ in
            (.zero, inverse.apply(up * standardGravity) + offset, nil)
        }
    }

    @Test("a stream of six still faces with turns between finds every face and recovers offset and matrix")
    func streamFindsAllSix() throws {
        let samples = CalibrationFixtures.sixPositions(
            offset: Self.offset, inverseMatrix: try #require(Self.matrix.inverse))
        var finder = PositionFinder(seconds: 2)
        var found: [CalibrationFit.Face] = []
        for sample in samples {
            if let face = finder.add(sample) { found.append(face) }
        }
        #expect(found == CalibrationFit.Face.allCases, "in procedure order, each once")
        #expect(finder.isComplete)
        #expect(finder.missing.isEmpty)
        let fit = try finder.fit()
        #expect((fit.offset - Self.offset).norm < 0.01, "offset \(fit.offset)")
        #expect(fit.matrix.maxDifference(to: Self.matrix) < 0.003, "matrix \(fit.matrix)")
        #expect(fit.largestResidual < 0.05, "residual \(fit.largestResidual)")
    }

    @Test("a still, square stretch is accepted once; the same face again is refused")
    func acceptsOnceThenRefusesRepeat() {
        var finder = PositionFinder(seconds: 2)
        #expect(finder.accept(Self.still(.unitZ)) == .accepted(.zUp))
        #expect(finder.positions.count == 1)
        #expect(finder.missing.first == .zDown)
        #expect(
            finder.accept(Self.still(.unitZ, seed: 9))
                == .refused("+z up is done already; turn the device to a new side"))
        #expect(finder.positions.count == 1)
    }

    @Test("a tilted, a moving and a too-short stretch are refused, saying why")
    func refusals() {
        let finder = PositionFinder(seconds: 2)
        let tilted = Self.still(Vector3(0, 0.6, 0.8))
        #expect(
            finder.judge(tilted)
                == .refused("no axis points straight up (the device is tilted); lean it against something square"))
        let moving = CalibrationFixtures.samples(duration: 2) { t in
            (Vector3(0, 0, 0.5 * sin(t * 6)), Vector3(0, 0, standardGravity), nil)
        }
        guard case .refused(let why) = finder.judge(moving) else {
            Issue.record("a moving stretch was accepted")
            return
        }
        #expect(why.hasPrefix("the device moved (gyro std"), "\(why)")
        #expect(finder.judge(Array(Self.still(.unitX).prefix(9))) == .refused("only 9 samples arrived"))
    }

    @Test("fitting with faces missing names them in procedure order")
    func missingFaces() {
        var finder = PositionFinder(seconds: 2)
        _ = finder.accept(Self.still(.unitZ))
        #expect(
            throws: CalibrationFitError(
                .missingPositions, "found 1 of 6 still positions; missing -z up, +y up, -y up, +x up, -x up")
        ) {
            _ = try finder.fit()
        }
    }
}

/// Magnetometer direction coverage on synthetic sweeps.
@Suite
struct FieldCoverageTests {
    @Test("a sweep over the whole sphere covers all 26 directions, around the box centre and the fitted centre")
    func fullSweep() throws {
        let hardIron = Vector3(12, -30, 5)
        let sweep = CalibrationFixtures.magneticSweep(hardIron: hardIron, inverseSoftIron: .identity).compactMap(\.mag)
        #expect(FieldCoverage.directionsSeen(sweep) == FieldCoverage.directions)
        let check = FieldCoverage.check(sweep, centre: hardIron, minimumShare: 1)
        #expect(check.covered == 26 && check.enough)
    }

    @Test("readings from one side cover a few directions and fall short of the share asked")
    func oneSide() {
        let hardIron = Vector3(3, 4, 5)
        let cap = (0..<200).map { i -> Vector3 in
            let a = Double(i) * 0.03
            return hardIron + Vector3(0.1 * cos(a), 0.1 * sin(a), 1) * 40
        }
        let check = FieldCoverage.check(cap, centre: hardIron, minimumShare: 0.7)
        #expect(check.covered <= 3)
        #expect(!check.enough)
        #expect(FieldCoverage.directionsSeen([]) == 0)
    }
}
