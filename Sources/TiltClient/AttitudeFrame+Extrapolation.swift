import TiltCore
import TiltWire

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension AttitudeFrame {
    /// The attitude at `monotonic` seconds (the client's `CLOCK_MONOTONIC`, the clock of the frame's `mono`),
    /// carried ahead from this frame by its rotation rate: what a renderer draws for the moment its frame will be
    /// seen, when it draws faster than frames come or a frame arrives late (issue 30).
    ///
    /// The frame stands for its sample's moment plus `predicted`; the rest of the way, up to `monotonic`, is
    /// constant-rate extrapolation, at most ``WireProtocol/maxPredict`` ahead of the sample in all. A frame
    /// already at or past `monotonic`, one without `mono`, and one at rest (`flags.rest`: its rate is noise) are
    /// returned as they are. The quaternion, Euler angles, gravity and tilt move; the tilt moves through the soft
    /// clamp of limit `tiltLimit` (the daemon's `limit` setting, 0.5 rad unless configured), so it never passes it.
    /// `predicted` grows by the time carried.
    public func extrapolated(toMonotonic monotonic: Double, tiltLimit: Double = 0.5) -> AttitudeFrame {
        guard let mono, !flags.rest, monotonic.isFinite else { return self }
        let already = predicted ?? 0
        let dt = min(monotonic - (mono + already), WireProtocol.maxPredict - already)
        guard dt > 0 else { return self }
        var f = self
        let turn = axes.device(rotationRate) * dt
        let q = (quaternion * Quaternion(rotationVector: turn)).normalized
        f.quaternion = q
        f.gravity = axes.picture(q.inverseRotate(Vector3(0, 0, -standardGravity)))
        // The tilt is the swing from the reference in the picture's axes: to first order it moves by the turn
        // about those axes, before the clamp.
        let inPicture = rotationRate * dt
        func carried(_ value: Double, _ by: Double) -> Double {
            guard tiltLimit > 0 else { return value }
            let ratio = min(max(value / tiltLimit, -0.999_999), 0.999_999)
            let raw = tiltLimit * atanh(ratio) + by
            return tiltLimit * tanh(raw / tiltLimit)
        }
        f.tilt = Tilt(x: carried(tilt.x, inPicture.x), y: carried(tilt.y, inPicture.y))
        f.predicted = already + dt
        return f
    }
}
