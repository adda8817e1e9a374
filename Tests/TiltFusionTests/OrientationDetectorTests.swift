import Foundation
import Testing
import TiltCore
import TiltFusion

/// Orientation and tilt from gravity (issue 16): iio-sensor-proxy's names and meaning, and no flip on a shake or a tap.
@Suite struct OrientationDetectorTests {
    static let g = 9.81
    static let rate = 100.0

    /// Gravity for a screen turned `roll` degrees clockwise about its normal from upright and leaning back `lean`
    /// degrees (0 upright, 90 lying face up).
    static func gravity(roll: Double, lean: Double = 0) -> Vector3 {
        let r = roll * .pi / 180
        let l = lean * .pi / 180
        let inPlane = g * cos(l)
        return Vector3(inPlane * sin(r), -inPlane * cos(r), -g * sin(l))
    }

    /// Feeds `poses` at 100 Hz from `start`; returns every reported change with its time.
    static func run(
        _ detector: inout OrientationDetector, _ poses: [Vector3], start: Double = 0
    ) -> [(time: Double, orientation: DeviceOrientation, tilt: DeviceTilt)] {
        var changes: [(Double, DeviceOrientation, DeviceTilt)] = []
        for (i, pose) in poses.enumerated() {
            let t = start + Double(i) / rate
            if detector.update(gravity: pose, time: t) { changes.append((t, detector.orientation, detector.tilt)) }
        }
        return changes
    }

    static func hold(_ pose: Vector3, seconds: Double) -> [Vector3] {
        Array(repeating: pose, count: Int(seconds * rate))
    }

    @Test(
        "each edge up gives iio-sensor-proxy's name, after the dwell",
        arguments: [
            (0.0, DeviceOrientation.normal), (90, .leftUp), (-90, .rightUp), (180, .bottomUp),
        ])
    func edgesUp(_ roll: Double, _ expected: DeviceOrientation) throws {
        var d = OrientationDetector()
        #expect(d.orientation == .undefined && d.tilt == .undefined)
        let changes = Self.run(&d, Self.hold(Self.gravity(roll: roll), seconds: 1))
        #expect(changes.count == 1)
        #expect(d.orientation == expected)
        #expect(d.tilt == .vertical)
        let first = try #require(changes.first)
        #expect(abs(first.time - 0.25) < 0.015, "reported after the 0.25 s dwell, not at once: \(first.time)")
    }

    @Test("the tilt bands: face-up, tilted-up, vertical, tilted-down, face-down")
    func tiltBands() {
        let cases: [(Double, DeviceTilt)] = [
            (90, .faceUp), (45, .tiltedUp), (0, .vertical), (-45, .tiltedDown), (-90, .faceDown),
        ]
        for (lean, expected) in cases {
            var d = OrientationDetector()
            _ = Self.run(&d, Self.hold(Self.gravity(roll: 0, lean: lean), seconds: 1))
            #expect(d.tilt == expected, "lean \(lean)°")
        }
    }

    @Test("lying flat from the start: the orientation stays undefined, the tilt is face-up")
    func flatFromTheStart() {
        var d = OrientationDetector()
        _ = Self.run(&d, Self.hold(Self.gravity(roll: 30, lean: 88), seconds: 1))
        #expect(d.orientation == .undefined)
        #expect(d.tilt == .faceUp)
    }

    @Test("a device laid flat keeps its last orientation")
    func flatKeepsTheLastOrientation() {
        var d = OrientationDetector()
        _ = Self.run(&d, Self.hold(Self.gravity(roll: 90), seconds: 1))
        #expect(d.orientation == .leftUp)
        // Laid down, and turned about the screen's normal while flat: nothing says which edge is up.
        let flat = (0..<200).map { Self.gravity(roll: 90 - Double($0), lean: 80) }
        _ = Self.run(&d, flat, start: 1)
        #expect(d.orientation == .leftUp)
        #expect(d.tilt == .faceUp)
    }

    @Test("a slow quarter turn about the screen's normal changes the orientation once, past 60°")
    func quarterTurn() throws {
        var d = OrientationDetector()
        _ = Self.run(&d, Self.hold(Self.gravity(roll: 0), seconds: 1))
        // 90° in 2 s, then held.
        let turn =
            (0...200).map { Self.gravity(roll: Double($0) * 90 / 200) } + Self.hold(Self.gravity(roll: 90), seconds: 1)
        let changes = Self.run(&d, turn, start: 1)
        #expect(changes.count == 1)
        let change = try #require(changes.first)
        #expect(change.orientation == .leftUp)
        // The crossing is at 60° (45° + 15° hysteresis), 1 + 60/45 s; reported a dwell later.
        let crossing = 1 + 60.0 / 45
        #expect(abs(change.time - (crossing + 0.25)) < 0.021, "\(change.time)")
        // Turning back just past the 45° border is not enough to return.
        let back =
            (0...100).map { Self.gravity(roll: 90 - Double($0) * 0.5) } + Self.hold(Self.gravity(roll: 40), seconds: 1)
        #expect(Self.run(&d, back, start: 5).isEmpty)
        #expect(d.orientation == .leftUp)
    }

    @Test("a shake: ±55° about the screen's normal at 4 Hz for 3 s never flips the orientation")
    func shake() {
        var d = OrientationDetector()
        _ = Self.run(&d, Self.hold(Self.gravity(roll: 0), seconds: 1))
        let shake = (0..<300).map { i in
            let t = Double(i) / Self.rate
            // Beyond 60° for about 0.05 s each swing: shorter than the dwell.
            return Self.gravity(roll: 62 * sin(2 * .pi * 4 * t), lean: 10 * sin(2 * .pi * 7 * t))
        }
        #expect(Self.run(&d, shake, start: 1).isEmpty)
        #expect(d.orientation == .normal && d.tilt == .vertical)
    }

    @Test("a tap: a 40 ms jolt of gravity toward any edge or face never flips anything")
    func tap() {
        for jolt in [
            Self.gravity(roll: 90), Self.gravity(roll: 180), Self.gravity(roll: 0, lean: 90), Vector3(30, 5, -20),
        ] {
            var d = OrientationDetector()
            let poses =
                Self.hold(Self.gravity(roll: -90), seconds: 1) + Self.hold(jolt, seconds: 0.04)
                + Self.hold(Self.gravity(roll: -90), seconds: 1)
            let changes = Self.run(&d, poses)
            #expect(changes.count == 1, "only the first report, for \(jolt)")
            #expect(d.orientation == .rightUp && d.tilt == .vertical)
        }
    }

    @Test("the tilt does not chatter around a band's edge")
    func tiltHysteresis() {
        var d = OrientationDetector()
        _ = Self.run(&d, Self.hold(Self.gravity(roll: 0, lean: 20), seconds: 1))
        #expect(d.tilt == .vertical)
        let wobble = (0..<400).map { Self.gravity(roll: 0, lean: 22.5 + 4 * sin(Double($0) / 7)) }
        #expect(Self.run(&d, wobble, start: 1).isEmpty)
        _ = Self.run(&d, Self.hold(Self.gravity(roll: 0, lean: 35), seconds: 1), start: 5)
        #expect(d.tilt == .tiltedUp)
    }

    @Test("zero, non-finite gravity and time are ignored")
    func badInput() {
        var d = OrientationDetector()
        let zero = d.update(gravity: .zero, time: 0)
        let nan = d.update(gravity: Vector3(.nan, 0, 0), time: 0)
        let never = d.update(gravity: Self.gravity(roll: 0), time: .infinity)
        #expect(!zero && !nan && !never)
        #expect(d.orientation == .undefined)
    }
}
