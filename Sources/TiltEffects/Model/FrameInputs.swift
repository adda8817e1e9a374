import TiltCore

/// The values of the built-in uniforms for one frame.
package struct FrameInputs: Sendable, Hashable {
    /// Seconds since start.
    package var time: Double
    /// Seconds since the previous frame.
    package var timeDelta: Double
    /// Frame number, from 0.
    package var frame: Int
    /// Output size in pixels.
    package var size: SIMD2<Double>
    /// UI tilt, the tip about the screen's x and y axes (radians).
    package var tilt: SIMD2<Double>
    /// Gravity, device frame, m/s².
    package var gravity: SIMD3<Double>
    /// Roll, pitch, yaw (radians).
    package var euler: SIMD3<Double>
    /// Angular rate (rad/s).
    package var rotationRate: SIMD3<Double>
    /// Attitude quaternion as (x, y, z, w).
    package var attitude: SIMD4<Double>
    /// Acceleration with gravity removed, device frame, m/s² (zero for a still frame).
    package var userAcceleration: SIMD3<Double> = .zero
    /// Pointer position in pixels, origin top-left.
    package var pointer: SIMD2<Double>
    /// Whether a pointer button is down (for Shadertoy's `iMouse.zw`).
    package var pointerDown: Bool
    /// The keys held, pressed and toggled, for Shadertoy's keyboard channel; `nil`: every key up (headless, the
    /// wallpaper).
    package var keyboard: ShadertoyKeyboard?

    /// Inputs for a still frame at `tilt` (gravity follows the tilt, as if the screen were tilted from lying flat).
    package init(
        time: Double = 0, timeDelta: Double = 0, frame: Int = 0, size: SIMD2<Double>, tilt: SIMD2<Double> = .zero,
        pointer: SIMD2<Double>? = nil, pointerDown: Bool = false
    ) {
        self.time = time
        self.timeDelta = timeDelta
        self.frame = frame
        self.size = size
        self.pointer = pointer ?? size / 2
        self.pointerDown = pointerDown
        self.tilt = .zero
        self.attitude = SIMD4(0, 0, 0, 1)
        self.euler = .zero
        self.rotationRate = .zero
        self.gravity = SIMD3(0, 0, -9.80665)
        hold(tilt: tilt)
    }

    /// Sets the motion fields to the device held still at `tilt`: the attitude, Euler angles and gravity follow the
    /// tilt (as if the screen were tilted from lying flat), and nothing turns.
    package mutating func hold(tilt: SIMD2<Double>) {
        let q = Quaternion(rotationVector: Vector3(tilt.x, tilt.y, 0))
        self.tilt = tilt
        attitude = SIMD4(q.x, q.y, q.z, q.w)
        let e = q.euler
        euler = SIMD3(e.roll, e.pitch, e.yaw)
        rotationRate = .zero
        // Gravity in the device frame: earth's "down" rotated into the device.
        let g = q.conjugate.rotate(Vector3(0, 0, -9.80665))
        gravity = SIMD3(g.x, g.y, g.z)
    }

    /// Replaces the motion fields with those of a frame from the daemon or a log replay.
    package mutating func apply(_ frame: AttitudeFrame) {
        tilt = SIMD2(frame.tilt.x, frame.tilt.y)
        gravity = SIMD3(frame.gravity.x, frame.gravity.y, frame.gravity.z)
        let e = frame.euler
        euler = SIMD3(e.roll, e.pitch, e.yaw)
        rotationRate = SIMD3(frame.rotationRate.x, frame.rotationRate.y, frame.rotationRate.z)
        userAcceleration = SIMD3(frame.userAcceleration.x, frame.userAcceleration.y, frame.userAcceleration.z)
        let q = frame.quaternion
        attitude = SIMD4(q.x, q.y, q.z, q.w)
    }
}

extension FrameInputs {
    /// These inputs with the motion a renderer does not read set to rest (`sources`: what its programs read), for
    /// comparing two frames of it: motion it ignores cannot change what it draws. The clock, size and pointer stay.
    package func onlyReading(_ sources: Set<BuiltinUniform.Source>) -> FrameInputs {
        var kept = self
        if !sources.contains(.tilt) { kept.tilt = .zero }
        if !sources.contains(.gravity) { kept.gravity = .zero }
        if !sources.contains(.attitude) { kept.attitude = .zero }
        if !sources.contains(.euler) { kept.euler = .zero }
        if !sources.contains(.rotationRate) { kept.rotationRate = .zero }
        kept.userAcceleration = .zero
        return kept
    }
}
