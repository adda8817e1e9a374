import TiltCore

/// Finds the six still positions of the accelerometer procedure (each axis up, then down) in a stream of samples,
/// and fits them.
///
/// `tilt calibrate accel` feeds it samples as they come (`--auto`, or a log) through ``add(_:)``, or hands it one
/// stretch per prompt through ``accept(_:)``. A stretch counts when the device was still (gyro and accel-magnitude
/// spread below ``stillness``), one axis points up within about 25° (``CalibrationFit/Face/classify(_:)``), and that
/// face is not done yet; the position is the stretch's mean specific force.
package struct PositionFinder: Sendable {
    /// Whether a stretch of samples is a usable new position.
    package enum Verdict: Sendable, Hashable {
        case accepted(CalibrationFit.Face)
        /// Why not, for the user (“the device moved (…)”).
        case refused(String)
    }

    /// Seconds of stillness that make a position.
    package let seconds: Double
    /// The still limits of one position: looser than the gyro-bias procedure's, since a hand props the device up.
    package let stillness = CalibrationFit.StillnessLimits(gyroStd: 0.05, accelMagnitudeStd: 0.15)
    /// The mean specific force of each face found so far.
    package private(set) var positions: [CalibrationFit.Face: Vector3] = [:]
    private var window: [MotionSample] = []

    package init(seconds: Double) {
        self.seconds = seconds
    }

    /// The faces not found yet, in procedure order.
    package var missing: [CalibrationFit.Face] {
        CalibrationFit.Face.allCases.filter { positions[$0] == nil }
    }

    /// Whether all six faces are found.
    package var isComplete: Bool { missing.isEmpty }

    /// Whether a stretch of samples is a usable new position, and why not.
    package func judge(_ samples: [MotionSample]) -> Verdict {
        guard samples.count >= 10 else { return .refused("only \(samples.count) samples arrived") }
        let stats = CalibrationFit.Stillness(samples)
        if let why = stillness.violation(stats) {
            return .refused("the device moved (\(why))")
        }
        guard let face = CalibrationFit.Face.classify(stats.accelMean) else {
            return .refused("no axis points straight up (the device is tilted); lean it against something square")
        }
        if positions[face] != nil { return .refused("\(face) is done already; turn the device to a new side") }
        return .accepted(face)
    }

    /// Judges a stretch and, when it is a new position, records it.
    package mutating func accept(_ samples: [MotionSample]) -> Verdict {
        let verdict = judge(samples)
        if case .accepted(let face) = verdict { positions[face] = CalibrationFit.Stillness(samples).accelMean }
        return verdict
    }

    /// Adds a sample of a stream; returns the face when the last `seconds` of the stream became a new position.
    ///
    /// The window slides by a tenth of its length while it is not a position, so a still stretch is found soon
    /// after it starts whatever the phase of the stream.
    package mutating func add(_ sample: MotionSample) -> CalibrationFit.Face? {
        window.append(sample)
        guard let first = window.first, sample.time - first.time >= seconds else { return nil }
        if case .accepted(let face) = accept(window) {
            window.removeAll(keepingCapacity: true)
            return face
        }
        let cut = window.firstIndex { $0.time - first.time >= seconds / 10 } ?? 1
        window.removeFirst(max(cut, 1))
        return nil
    }

    /// The accelerometer's correction from the six positions, and how well it fits them.
    package struct Fit: Sendable, Hashable {
        package var offset: Vector3
        package var matrix: Matrix3
        /// The largest distance of a corrected position from its ideal `g·up`, m/s².
        package var largestResidual: Double
    }

    /// Fits offset and matrix to the six positions (``CalibrationFit/sixPosition(_:gravity:)``).
    ///
    /// - Throws: ``CalibrationFitError`` naming the faces still missing, or when the fit is degenerate.
    package func fit() throws(CalibrationFitError) -> Fit {
        guard isComplete else {
            throw CalibrationFitError(
                .missingPositions,
                "found \(positions.count) of 6 still positions; missing "
                    + missing.map(\.description).joined(separator: ", "))
        }
        let (offset, matrix) = try CalibrationFit.sixPosition(positions)
        let residual =
            positions.map { face, mean in
                (matrix.apply(mean - offset) - face.up * standardGravity).norm
            }.max() ?? 0
        return Fit(offset: offset, matrix: matrix, largestResidual: residual)
    }
}
