import Testing
import TiltCore

@Suite struct QuaternionTests {
    private func close(_ a: Vector3, _ b: Vector3, _ tol: Double = 1e-12) -> Bool { (a - b).norm < tol }

    @Test func hamiltonProductFollowsIJK() {
        let i = Quaternion(w: 0, x: 1, y: 0, z: 0)
        let j = Quaternion(w: 0, x: 0, y: 1, z: 0)
        let k = Quaternion(w: 0, x: 0, y: 0, z: 1)
        #expect(i * j == k)
        #expect(j * k == i)
        #expect(k * i == j)
        #expect(i * i == Quaternion(w: -1, x: 0, y: 0, z: 0))
        #expect(i * j * k == Quaternion(w: -1, x: 0, y: 0, z: 0))
    }

    @Test func rotationAboutZTakesXToY() {
        let q = Quaternion(axis: .unitZ, angle: .pi / 2)
        #expect(close(q.rotate(.unitX), .unitY))
        #expect(close(q.inverseRotate(.unitY), .unitX))
    }

    @Test func compositionAppliesRightFirst() {
        let a = Quaternion(axis: .unitX, angle: 0.7)
        let b = Quaternion(axis: .unitY, angle: -1.1)
        let v = Vector3(0.3, -2, 5)
        #expect(close((a * b).rotate(v), a.rotate(b.rotate(v)), 1e-12))
    }

    @Test(arguments: [Vector3(0.1, -0.2, 0.3), Vector3(2.5, 0.1, -0.4), Vector3(1e-10, 0, 0), Vector3(0, 3.1, 0)])
    func rotationVectorRoundTrips(_ v: Vector3) {
        let q = Quaternion(rotationVector: v)
        #expect(abs(q.norm - 1) < 1e-12)
        #expect(close(q.rotationVector, v, 1e-9))
    }

    @Test func rotationVectorUsesTheShortWay() {
        // 3π/2 about z is −π/2 about z.
        let q = Quaternion(axis: .unitZ, angle: 3 * .pi / 2)
        #expect(close(q.rotationVector, Vector3(0, 0, -.pi / 2), 1e-12))
        #expect(abs(q.angle - .pi / 2) < 1e-12)
    }

    @Test(arguments: [(0.1, 0.2, 0.3), (-1.2, 0.5, 2.9), (3.0, -1.4, -3.0)])
    func eulerRoundTrips(_ angles: (Double, Double, Double)) {
        let e = EulerAngles(roll: angles.0, pitch: angles.1, yaw: angles.2)
        let back = Quaternion(euler: e).euler
        #expect(abs(back.roll - e.roll) < 1e-9)
        #expect(abs(back.pitch - e.pitch) < 1e-9)
        #expect(abs(back.yaw - e.yaw) < 1e-9)
    }

    @Test func eulerAtGimbalLockStaysFinite() {
        let q = Quaternion(euler: EulerAngles(roll: 0.3, pitch: .pi / 2, yaw: 0.2))
        let e = q.euler
        #expect(e.roll.isFinite && e.pitch.isFinite && e.yaw.isFinite)
        #expect(abs(e.pitch - .pi / 2) < 1e-6)
    }

    @Test(arguments: [
        (Vector3(0, 0, 1), Vector3(0, 0, 1)), (Vector3(1, 0, 0), Vector3(0, 1, 0)),
        (Vector3(0.2, -0.5, 0.8), Vector3(-0.9, 0.1, 0.3)), (Vector3(0, 0, 1), Vector3(0, 0, -1)),
    ])
    func fromToMapsTheDirection(_ pair: (Vector3, Vector3)) {
        let q = Quaternion(from: pair.0, to: pair.1)
        #expect(close(q.rotate(pair.0.normalized!), pair.1.normalized!, 1e-9))
    }

    @Test func degenerateInputsGiveIdentityNotNaN() {
        #expect(Quaternion(axis: .zero, angle: 1) == .identity)
        #expect(Quaternion(w: 0, x: 0, y: 0, z: 0).normalized == .identity)
        #expect(Quaternion(w: .nan, x: 0, y: 0, z: 0).normalized == .identity)
        #expect(Quaternion(from: .zero, to: .unitZ) == .identity)
        #expect(Vector3.zero.normalized == nil)
    }

    @Test func angleBetweenAttitudes() {
        let a = Quaternion(axis: Vector3(1, 1, 0), angle: 0.4)
        let b = a * Quaternion(axis: .unitZ, angle: 0.25)
        #expect(abs(a.angle(to: b) - 0.25) < 1e-12)
        #expect(abs(a.angle(to: Quaternion(w: -a.w, x: -a.x, y: -a.y, z: -a.z))) < 1e-7)
    }
}
