import TiltCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Discrete orientation and tilt from the fused gravity, steady under shakes and taps.
///
/// Two guards keep it from flipping on a jolt. In angle: the orientation changes only when gravity's direction in the
/// screen's plane is past the 45° border between two quadrants by ``Configuration/hysteresis`` degrees, and the tilt
/// band only when the screen's elevation is past a band's edge by the same margin. In time: a new value must hold for
/// ``Configuration/dwell`` seconds of sample time before it is reported. A device lying flat (gravity within
/// ``Configuration/flatAngle`` degrees of the screen's normal) keeps the orientation it had, as nothing in the
/// screen's plane says which edge is up.
package struct OrientationDetector: Sendable {
    /// The thresholds.
    package struct Configuration: Sendable, Equatable {
        /// Degrees past a border a new value must be.
        package var hysteresis = 15.0
        /// Seconds a new value must hold before it is reported.
        package var dwell = 0.25
        /// Below this elevation of the screen's plane from horizontal, degrees, the orientation is kept.
        package var flatAngle = 25.0

        /// iio-sensor-proxy's thresholds; change a field to tune one.
        package init() {}

        package static let standard = Configuration()
    }

    package let configuration: Configuration
    /// The reported orientation.
    package private(set) var orientation: DeviceOrientation = .undefined
    /// The reported tilt.
    package private(set) var tilt: DeviceTilt = .undefined
    private var pendingOrientation: (value: DeviceOrientation, since: Double)?
    private var pendingTilt: (value: DeviceTilt, since: Double)?

    package init(configuration: Configuration = .standard) {
        self.configuration = configuration
    }

    /// Takes one gravity estimate (device frame, any length but zero) at `time` seconds; returns whether the
    /// reported orientation or tilt changed.
    package mutating func update(gravity g: Vector3, time: Double) -> Bool {
        let length = g.norm
        guard length > 0, length.isFinite, time.isFinite else { return false }
        let before = (orientation, tilt)
        if let seen = orientationSeen(g, length: length) {
            orientation = settle(seen, current: orientation, pending: &pendingOrientation, time: time)
        } else {
            pendingOrientation = nil
        }
        tilt = settle(tiltSeen(g, length: length), current: tilt, pending: &pendingTilt, time: time)
        return before != (orientation, tilt)
    }

    /// Reports `seen` once it has held for the dwell time; until then the current value stands.
    private func settle<Value: Equatable>(
        _ seen: Value, current: Value, pending: inout (value: Value, since: Double)?, time: Double
    ) -> Value {
        guard seen != current else {
            pending = nil
            return current
        }
        if let p = pending, p.value == seen, time >= p.since {
            guard time - p.since >= configuration.dwell else { return current }
            pending = nil
            return seen
        }
        pending = (seen, time)
        return configuration.dwell <= 0 ? seen : current
    }

    /// The quadrant gravity's in-plane direction is in, keeping the current one within its widened quadrant; `nil`
    /// when the device lies too flat to tell.
    private func orientationSeen(_ g: Vector3, length: Double) -> DeviceOrientation? {
        let inPlane = (g.x * g.x + g.y * g.y).squareRoot()
        guard inPlane >= length * sin(configuration.flatAngle * .pi / 180) else { return nil }
        // 0° for normal (gravity along −y), +90° for left-up (along +x), ±180° for bottom-up.
        let angle = atan2(g.x, -g.y) * 180 / .pi
        if let centre = Self.centre(of: orientation),
            abs(Self.wrap(angle - centre)) < 45 + configuration.hysteresis
        {
            return orientation
        }
        switch angle {
        case -45..<45: return .normal
        case 45..<135: return .leftUp
        case -135 ..< -45: return .rightUp
        default: return .bottomUp
        }
    }

    /// The tilt band of the screen's elevation (+90° face up), keeping the current band within its widened edges.
    private func tiltSeen(_ g: Vector3, length: Double) -> DeviceTilt {
        let elevation = asin(max(-1, min(1, -g.z / length))) * 180 / .pi
        let h = configuration.hysteresis / 3
        if let band = Self.band(of: tilt), elevation >= band.lowerBound - h, elevation <= band.upperBound + h {
            return tilt
        }
        switch elevation {
        case ..<(-67.5): return .faceDown
        case ..<(-22.5): return .tiltedDown
        case ...22.5: return .vertical
        case ...67.5: return .tiltedUp
        default: return .faceUp
        }
    }

    private static func centre(of o: DeviceOrientation) -> Double? {
        switch o {
        case .undefined: nil
        case .normal: 0
        case .leftUp: 90
        case .rightUp: -90
        case .bottomUp: 180
        }
    }

    private static func band(of t: DeviceTilt) -> ClosedRange<Double>? {
        switch t {
        case .undefined: nil
        case .faceDown: -90 ... -67.5
        case .tiltedDown: -67.5 ... -22.5
        case .vertical: -22.5...22.5
        case .tiltedUp: 22.5...67.5
        case .faceUp: 67.5...90
        }
    }

    /// An angle difference in (−180°, 180°].
    private static func wrap(_ degrees: Double) -> Double {
        var d = degrees.truncatingRemainder(dividingBy: 360)
        if d > 180 { d -= 360 } else if d <= -180 { d += 360 }
        return d
    }
}
