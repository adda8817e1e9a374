import TiltCore

/// Sample in, frame out: the attitude filter followed by tilt shaping, as the daemon and the renderer's log replay
/// run it.
package struct MotionPipeline: Sendable {
    /// Pipeline parameters.
    package struct Configuration: Sendable, Hashable {
        package var filter: AttitudeFilter.Configuration
        package var shaping: TiltShaper.Configuration
        /// How the attitude is carried ahead for a predicted frame (``MotionPipeline/predictedFrame(_:horizon:)``).
        package var prediction: AttitudePredictor.Model

        package init(
            filter: AttitudeFilter.Configuration = .init(), shaping: TiltShaper.Configuration = .init(),
            prediction: AttitudePredictor.Model = .fitted
        ) {
            self.filter = filter
            self.shaping = shaping
            self.prediction = prediction
        }
    }

    package private(set) var filter: AttitudeFilter
    package private(set) var shaper: TiltShaper
    /// Sequence number of the next frame.
    package private(set) var nextSeq: UInt64 = 0
    /// Carries the attitude ahead for predicted frames; fed every sample.
    package private(set) var predictor: AttitudePredictor
    /// One shaper per horizon predicted (milliseconds), fed every sample's predicted attitude: a predicted tilt is
    /// smoothed and clamped like the plain one, from the same tare reference.
    private var predictionShapers: [Int: TiltShaper] = [:]
    /// The latest sample's predicted attitude and its shaped tilt, per horizon (milliseconds).
    private var predicted: [Int: (attitude: Quaternion, tilt: AttitudeFrame.Tilt)] = [:]

    package init(configuration: Configuration = .init()) {
        filter = AttitudeFilter(configuration: configuration.filter)
        shaper = TiltShaper(configuration: configuration.shaping)
        predictor = AttitudePredictor(model: configuration.prediction)
    }

    /// A pipeline started beside a running one (the daemon's 6D filter beside its 9D one): it takes over the other's
    /// gyroscope bias and scale estimates, so it does not drift while it learns them again. Its inclination comes
    /// from its first sample's accelerometer, as always; heading and tare are its own (see ``adoptReference(of:)``).
    package init(configuration: Configuration, beside other: MotionPipeline) {
        self.init(configuration: configuration)
        filter.gyroErrors.bias = other.filter.gyroErrors.bias
        filter.gyroErrors.scale = other.filter.gyroErrors.scale
    }

    /// The next sample comes after a gap (``SampleGap``: lost samples, or time going back): the filter does not
    /// integrate across it (``AttitudeFilter/markGap()``) and the tilt's smoothing starts again. Frames keep their
    /// sequence numbers; the tare reference is kept.
    package mutating func markGap() {
        filter.markGap()
        shaper.restartSmoothing()
        predictor.reset()
        for ms in predictionShapers.keys { predictionShapers[ms]?.restartSmoothing() }
    }

    /// Re-centres the tilt on the next sample's attitude.
    package mutating func tare() {
        shaper.tare()
    }

    /// Fuses `sample` and returns the frame for it.
    package mutating func process(_ sample: MotionSample, source: String) -> AttitudeFrame {
        process(sample, source: source, following: nil)
    }

    /// Fuses `sample` in a pipeline that joins `other` (which fused the same sample just before): this frame's
    /// tilt already comes from `other`'s tare reference, carried into this filter's earth frame (see
    /// ``adoptReference(of:)``).
    package mutating func process(_ sample: MotionSample, source: String, following other: MotionPipeline?)
        -> AttitudeFrame
    {
        let estimate = filter.update(sample)
        if let other, other.nextSeq > 0, let reference = other.shaper.reference {
            shaper.tare(to: estimate.quaternion * other.filter.quaternion.conjugate * reference)
        }
        let tilt = shaper.shape(estimate.quaternion, at: sample.time)
        predictor.update(rate: estimate.rotationRate, time: sample.time, resting: estimate.flags.rest)
        if !predictionShapers.isEmpty { shapePredictions(estimate.quaternion, at: sample.time) }
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
    package mutating func tareNow() -> Quaternion? {
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
    package mutating func resetTareNow() -> Quaternion? {
        shaper.resetTare()
    }

    /// Takes `other`'s tare reference as this pipeline's, carried into this filter's earth frame (the two differ by
    /// a heading when one fuses a magnetometer and the other not): both then tilt from the same pose. Does nothing
    /// until both have fused a sample.
    package mutating func adoptReference(of other: MotionPipeline) {
        guard nextSeq > 0, other.nextSeq > 0, let reference = other.shaper.reference else { return }
        let offset = filter.quaternion * other.filter.quaternion.conjugate
        shaper.tare(to: offset * reference)
    }
}

// MARK: Prediction (issue 30)

extension MotionPipeline {
    /// The horizons, in milliseconds (1 … 100), that frames are predicted for: each keeps its own tilt smoothing,
    /// fed every sample from then on. A horizon added later starts its smoothing at the next sample.
    package var predictionHorizons: Set<Int> {
        get { Set(predictionShapers.keys) }
        set {
            let wanted = Set(newValue.map { min(max($0, 1), Int(AttitudePredictor.maxHorizon * 1000)) })
            for ms in predictionShapers.keys where !wanted.contains(ms) {
                predictionShapers[ms] = nil
                predicted[ms] = nil
            }
            for ms in wanted where predictionShapers[ms] == nil {
                var s = TiltShaper(configuration: shaper.configuration)
                if let reference = shaper.reference { s.tare(to: reference) }
                predictionShapers[ms] = s
            }
        }
    }

    private mutating func shapePredictions(_ attitude: Quaternion, at time: Double) {
        for ms in Array(predictionShapers.keys) {
            guard var s = predictionShapers[ms] else { continue }
            // The same tare reference as the plain tilt, whenever that one changes.
            if let reference = shaper.reference, s.reference != reference { s.tare(to: reference) }
            let ahead = predictor.predict(attitude, ahead: Double(ms) / 1000)
            predicted[ms] = (ahead, s.shape(ahead, at: time))
            predictionShapers[ms] = s
        }
    }

    /// `frame` (this pipeline's latest) carried `horizon` seconds ahead: its quaternion, Euler angles and gravity
    /// predicted (``AttitudePredictor``), its tilt the predicted attitude's, shaped by that horizon's own smoothing
    /// when the horizon is among ``predictionHorizons`` (else shaped without smoothing, only clamped), and
    /// `predicted` set. Rotation rate and user acceleration stay the sample's. A horizon of 0 returns `frame`.
    package func predictedFrame(_ frame: AttitudeFrame, horizon: Double) -> AttitudeFrame {
        let h = min(max(horizon.isFinite ? horizon : 0, 0), AttitudePredictor.maxHorizon)
        guard h > 0 else { return frame }
        var f = frame
        let ms = Int((h * 1000).rounded())
        if let kept = predicted[ms], Double(ms) / 1000 == h {
            // Predicted and shaped already, as the sample was fused.
            f.quaternion = kept.attitude
            f.tilt = kept.tilt
        } else {
            let q = predictor.predict(frame.quaternion, ahead: h)
            let raw = SwingTilt.of((shaper.reference ?? q).conjugate * q)
            let clamp = SoftClamp(limit: shaper.configuration.limit)
            f.quaternion = q
            f.tilt = AttitudeFrame.Tilt(x: clamp(raw.x), y: clamp(raw.y))
        }
        f.gravity = f.quaternion.inverseRotate(Vector3(0, 0, -standardGravity))
        f.predicted = h
        return f
    }
}
