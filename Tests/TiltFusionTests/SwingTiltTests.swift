import Foundation
import Testing
import TiltCore
import TiltFusion
import TiltTestKit

/// The tilt never jumps (issue 19): the raw tilt is a continuous, odd function of the pose that ignores turning in
/// the screen's plane, and the shaped tilt follows any continuous motion without a step.
@Suite struct SwingTiltTests {
    /// Axes in the screen's plane that the paths turn about: x, y and a diagonal.
    static let diagonal = Vector3(0.5.squareRoot(), 0.5.squareRoot(), 0)
    static let inPlaneAxes: [Vector3] = [.unitX, .unitY, diagonal]

    private func distance(_ a: AttitudeFrame.Tilt, _ b: AttitudeFrame.Tilt) -> Double {
        ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
    }

    @Test("up to 90° the tilt is the rotation vector of a pure tilt, as before", arguments: inPlaneAxes)
    func pureTiltIsTheRotationVector(_ axis: Vector3) {
        for degrees in stride(from: -90.0, through: 90.0, by: 2.5) {
            let r = Quaternion(axis: axis, angle: degrees * .pi / 180)
            let tilt = SwingTilt.of(r)
            let v = r.rotationVector
            #expect(abs(tilt.x - v.x) < 1e-12 && abs(tilt.y - v.y) < 1e-12, "\(degrees)°: \(tilt) vs \(v)")
        }
    }

    @Test("small rotations: the same as the rotation vector's x/y to first order")
    func smallRotationsAreUnchanged() {
        var random = SeededGenerator(seed: 19)
        for _ in 0..<500 {
            let v = Vector3(
                Double.random(in: -0.02...0.02, using: &random), Double.random(in: -0.02...0.02, using: &random),
                Double.random(in: -0.02...0.02, using: &random))
            let tilt = SwingTilt.of(Quaternion(rotationVector: v))
            // The difference is second order: half the product of the turn and the tilt.
            #expect(abs(tilt.x - v.x) < v.norm * v.norm && abs(tilt.y - v.y) < v.norm * v.norm, "\(v): \(tilt)")
        }
    }

    @Test("turning in the screen's plane, by any amount, does not change the tilt")
    func twistIsIgnored() {
        let swing = Quaternion(axis: Vector3(0.6, -0.8, 0), angle: 0.4)
        let expected = SwingTilt.of(swing)
        #expect(abs(expected.x - 0.24) < 1e-12 && abs(expected.y + 0.32) < 1e-12)
        for degrees in stride(from: -360.0, through: 360.0, by: 5) {
            let tilt = SwingTilt.of(Quaternion(axis: .unitZ, angle: degrees * .pi / 180) * swing)
            #expect(distance(tilt, expected) < 1e-12, "turned \(degrees)°: \(tilt)")
        }
    }

    @Test(
        "odd: tipping the other way negates the tilt; the sign of the quaternion does not matter",
        arguments: inPlaneAxes)
    func oddAndSignFree(_ axis: Vector3) {
        for degrees in stride(from: 0.0, through: 180.0, by: 3) {
            let r = Quaternion(axis: axis, angle: degrees * .pi / 180)
            let forward = SwingTilt.of(r)
            let back = SwingTilt.of(r.conjugate)
            #expect(abs(forward.x + back.x) < 1e-12 && abs(forward.y + back.y) < 1e-12, "\(degrees)°")
            let negated = SwingTilt.of(Quaternion(w: -r.w, x: -r.x, y: -r.y, z: -r.z))
            #expect(distance(forward, negated) < 1e-15)
        }
    }

    @Test("past 90° the tilt folds back to zero face-away, continuously", arguments: inPlaneAxes)
    func foldsBackPastNinetyDegrees(_ axis: Vector3) {
        let at90 = SwingTilt.of(Quaternion(axis: axis, angle: .pi / 2))
        #expect(abs(at90.x - axis.x * .pi / 2) < 1e-12 && abs(at90.y - axis.y * .pi / 2) < 1e-12)
        let at150 = SwingTilt.of(Quaternion(axis: axis, angle: 150 * .pi / 180))
        #expect(abs(at150.x - axis.x * .pi / 4) < 1e-12 && abs(at150.y - axis.y * .pi / 4) < 1e-12)
        let faceAway = SwingTilt.of(Quaternion(axis: axis, angle: .pi))
        #expect(abs(faceAway.x) < 1e-12 && abs(faceAway.y) < 1e-12)
    }

    /// One continuous path at 100 Hz and half a turn per second: a whole turn about `axis` (through the face-away
    /// pose), a tip of 0.3 rad about it, then a whole turn about z (in the screen's plane) while so tipped.
    private func pathsThroughHalfTurns(about axis: Vector3) -> [Quaternion] {
        let step = Double.pi / 100
        let tipping = (0...200).map { Quaternion(axis: axis, angle: Double($0) * step) }
        let tipped = (1...10).map { Quaternion(axis: axis, angle: Double($0) * 0.03) }
        let turning = (1...200).map { Quaternion(axis: .unitZ, angle: Double($0) * step) * tipped.last! }
        return tipping + tipped + turning
    }

    @Test("the raw tilt moves at most π/2 times as far as the pose, through 180° too", arguments: inPlaneAxes)
    func rawTiltIsLipschitz(_ axis: Vector3) {
        var random = SeededGenerator(seed: 7)
        // Paths through both kinds of half-turn, and a random walk that wanders over every pose.
        var walk = [Quaternion.identity]
        for _ in 0..<20_000 {
            let step = Vector3(
                Double.random(in: -0.05...0.05, using: &random), Double.random(in: -0.05...0.05, using: &random),
                Double.random(in: -0.05...0.05, using: &random))
            walk.append((walk.last! * Quaternion(rotationVector: step)).normalized)
        }
        for path in [pathsThroughHalfTurns(about: axis), walk] {
            for (a, b) in zip(path, path.dropFirst()) {
                let moved = (a.conjugate * b).angle
                let change = distance(SwingTilt.of(a), SwingTilt.of(b))
                #expect(change <= Double.pi / 2 * moved + 1e-9, "\(a) → \(b): tilt moved \(change), pose \(moved)")
            }
        }
    }

    @Test("the shaped tilt has no step on rotations through 180° about x, y, a diagonal and z", arguments: inPlaneAxes)
    func shapedTiltNeverJumps(_ axis: Vector3) {
        var shaper = TiltShaper()
        _ = shaper.shape(.identity, at: 0)
        var previous = AttitudeFrame.Tilt.zero
        var largest = 0.0
        for (i, relative) in pathsThroughHalfTurns(about: axis).enumerated() {
            let tilt = shaper.shape(relative, at: Double(i + 1) * 0.01)
            largest = max(largest, abs(tilt.x - previous.x), abs(tilt.y - previous.y))
            previous = tilt
        }
        // The rotation-vector tilt stepped by about 2·limit = 1 rad as the angle passed 180°.
        #expect(largest < 0.1, "largest step \(largest)")
    }

    @Test("at rest the tilt settles and stays, near the face-away pose too")
    func stableAtRest() {
        for degrees in [0.0, 45, 120, 179.9, 180] {
            var shaper = TiltShaper()
            _ = shaper.shape(.identity, at: 0)
            let pose = Quaternion(axis: Self.diagonal, angle: degrees * .pi / 180)
            var last = AttitudeFrame.Tilt.zero
            for i in 1...400 { last = shaper.shape(pose, at: Double(i) * 0.01) }
            let next = shaper.shape(pose, at: 4.01)
            #expect(distance(next, last) < 1e-9, "\(degrees)°")
            #expect(abs(last.x - last.y) < 1e-12, "the diagonal stays diagonal at \(degrees)°")
        }
    }

    @Test("the BROAD fixture fused end to end: no tilt step over 0.1 rad between samples (14 before issue 19)")
    func fixtureHasNoJumps() throws {
        let dir = TestPaths.temporaryDirectory("swing")
        defer { try? FileManager.default.removeItem(at: dir) }
        let output = dir.appendingPathComponent("fused.csv").path
        let fuse = try ChildProcess.run(
            TestPaths.executable("tilt"), ["fuse", "--input", TestPaths.broadExcerpt, "--output", output])
        try #require(fuse.status == 0, "\(fuse.stderr)")
        let lines = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n").filter {
            !$0.hasPrefix("#")
        }
        let header = try #require(lines.first).split(separator: ",").map(String.init)
        let (t, x, y) = (
            try #require(header.firstIndex(of: "t")), try #require(header.firstIndex(of: "tilt_x")),
            try #require(header.firstIndex(of: "tilt_y"))
        )
        let rows = lines.dropFirst().map { $0.split(separator: ",").map { Double($0) ?? .nan } }
        #expect(rows.count > 10_000, "the 60 s excerpt at about 286 Hz")
        var jumps: [String] = []
        for (a, b) in zip(rows, rows.dropFirst()) where max(abs(b[x] - a[x]), abs(b[y] - a[y])) > 0.1 {
            jumps.append("t=\(b[t]): (\(a[x]), \(a[y])) → (\(b[x]), \(b[y]))")
        }
        #expect(jumps.isEmpty, "\(jumps.count) jumps: \(jumps.prefix(5))")
    }
}
