import TiltCore

/// How much of the sphere of directions magnetometer readings cover: the progress measure of
/// `tilt calibrate mag`.
///
/// Directions are counted in the 26 bins of ``CalibrationFit/sphereBins`` around a centre. While readings arrive
/// the centre is the middle of their bounding box (the hard iron is not fitted yet); the final check uses the
/// fitted hard iron.
package enum FieldCoverage {
    /// The number of direction bins.
    package static let directions = 26

    /// Directions seen around the centre of the readings' bounding box.
    ///
    /// Called several times a second during collection, so at most about 2,000 readings are binned (every k-th).
    package static func directionsSeen(_ points: [Vector3]) -> Int {
        guard let first = points.first else { return 0 }
        var low = first
        var high = first
        for p in points {
            low = Vector3(min(low.x, p.x), min(low.y, p.y), min(low.z, p.z))
            high = Vector3(max(high.x, p.x), max(high.y, p.y), max(high.z, p.z))
        }
        let step = max(points.count / 2000, 1)
        let sampled = stride(from: 0, to: points.count, by: step).map { points[$0] }
        return CalibrationFit.coveredBins(sampled, centre: (low + high) / 2).count
    }

    /// Directions seen around `centre` (the fitted hard iron), and whether they make up `minimumShare` of all.
    package static func check(_ points: [Vector3], centre: Vector3, minimumShare: Double) -> (
        covered: Int, enough: Bool
    ) {
        let covered = CalibrationFit.coveredBins(points, centre: centre).count
        return (covered, Double(covered) / Double(directions) >= minimumShare)
    }
}
