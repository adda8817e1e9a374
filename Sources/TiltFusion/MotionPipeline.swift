import TiltCore

/// Sample in, frame out: the attitude filter followed by tilt shaping, as the daemon and the renderer's log replay
/// run it.
public struct MotionPipeline: Sendable {
    /// Pipeline parameters.
    public struct Configuration: Sendable, Hashable {
        public var filter: AttitudeFilter.Configuration
        public var shaping: TiltShaper.Configuration

        public init(filter: AttitudeFilter.Configuration = .init(), shaping: TiltShaper.Configuration = .init()) {
            self.filter = filter
            self.shaping = shaping
        }
    }

    public private(set) var filter: AttitudeFilter
    public private(set) var shaper: TiltShaper
    /// Sequence number of the next frame.
    public private(set) var nextSeq: UInt64 = 0

    public init(configuration: Configuration = .init()) {
        filter = AttitudeFilter(configuration: configuration.filter)
        shaper = TiltShaper(configuration: configuration.shaping)
    }

    /// A pipeline started beside a running one (the daemon's 6D filter beside its 9D one): it takes over the other's
    /// gyroscope bias and scale estimates, so it does not drift while it learns them again. Its inclination comes
    /// from its first sample's accelerometer, as always; heading and tare are its own (see ``adoptReference(of:)``).
    public init(configuration: Configuration, beside other: MotionPipeline) {
        self.init(configuration: configuration)
        filter.gyroErrors.bias = other.filter.gyroErrors.bias
        filter.gyroErrors.scale = other.filter.gyroErrors.scale
    }

    /// The next sample comes after a gap (``SampleGap``: lost samples, or time going back): the filter does not
    /// integrate across it (``AttitudeFilter/markGap()``) and the tilt's smoothing starts again. Frames keep their
    /// sequence numbers; the tare reference is kept.
    public mutating func markGap() {
        filter.markGap()
        shaper.restartSmoothing()
    }

    /// Re-centres the tilt on the next sample's attitude.
    public mutating func tare() {
        shaper.tare()
    }

    /// Fuses `sample` and returns the frame for it.
    public mutating func process(_ sample: MotionSample, source: String) -> AttitudeFrame {
        process(sample, source: source, following: nil)
    }

    /// Fuses `sample` in a pipeline that joins `other` (which fused the same sample just before): this frame's
    /// tilt already comes from `other`'s tare reference, carried into this filter's earth frame (see
    /// ``adoptReference(of:)``).
    public mutating func process(_ sample: MotionSample, source: String, following other: MotionPipeline?)
        -> AttitudeFrame
    {
        let estimate = filter.update(sample)
        if let other, other.nextSeq > 0, let reference = other.shaper.reference {
            shaper.tare(to: estimate.quaternion * other.filter.quaternion.conjugate * reference)
        }
        let tilt = shaper.shape(estimate.quaternion, at: sample.time)
        defer { nextSeq &+= 1 }
        var frame = AttitudeFrame(
            seq: nextSeq, time: sample.time, quaternion: estimate.quaternion, gravity: estimate.gravity,
            rotationRate: estimate.rotationRate, userAcceleration: estimate.userAcceleration, tilt: tilt,
            flags: estimate.flags, source: source)
        frame.headingAccuracy = estimate.headingAccuracy.map { $0 * 180 / .pi }
        return frame
    }
}

extension MotionPipeline {
    /// Re-centres the tilt on the filter's current attitude, or on the next one if no sample was fused yet.
    ///
    /// - Returns: The new reference pose, or `nil` when it will be the next sample's.
    public mutating func tareNow() -> Quaternion? {
        guard nextSeq > 0 else {
            shaper.tare()
            return nil
        }
        let q = filter.quaternion
        shaper.tare(to: q)
        return q
    }

    /// Undoes every tare: the tilt is relative to the first attitude again (see ``TiltShaper/resetTare()``).
    ///
    /// - Returns: That first reference pose, or `nil` before the first sample (a pending tare is cancelled).
    public mutating func resetTareNow() -> Quaternion? {
        shaper.resetTare()
    }

    /// Takes `other`'s tare reference as this pipeline's, carried into this filter's earth frame (the two differ by
    /// a heading when one fuses a magnetometer and the other not): both then tilt from the same pose. Does nothing
    /// until both have fused a sample.
    public mutating func adoptReference(of other: MotionPipeline) {
        guard nextSeq > 0, other.nextSeq > 0, let reference = other.shaper.reference else { return }
        let offset = filter.quaternion * other.filter.quaternion.conjugate
        shaper.tare(to: offset * reference)
    }
}
