import TiltCore

/// A whole sensor log in memory, for offline work (`tilt fuse`, benchmarks, tests).
public struct SensorLog: Sendable {
    public var path: String
    public var metadata: [String: String]
    public var samples: [MotionSample]
    /// Reference orientations per sample (nil where unknown), if the log has `truth_*` columns.
    public var truth: [Quaternion?]?
    /// The `movement` column per sample, if present.
    public var movement: [Bool]?
    public var hasMagnetometer: Bool

    public init(
        path: String, metadata: [String: String] = [:], samples: [MotionSample], truth: [Quaternion?]? = nil,
        movement: [Bool]? = nil, hasMagnetometer: Bool
    ) {
        self.path = path
        self.metadata = metadata
        self.samples = samples
        self.truth = truth
        self.movement = movement
        self.hasMagnetometer = hasMagnetometer
    }

    /// The sampling rate from the `sampling_rate_hz` metadata, else from the median sample interval.
    public var samplingRate: Double? {
        if let text = metadata["sampling_rate_hz"], let v = Double(text), v > 0 { return v }
        guard samples.count > 2 else { return nil }
        var dts = zip(samples.dropFirst(), samples).map { $0.time - $1.time }.filter { $0 > 0 }
        guard !dts.isEmpty else { return nil }
        dts.sort()
        return 1 / dts[dts.count / 2]
    }

    /// Reads the whole log at `path` (`.csv` or `.csv.gz`), stopping at the first bad row.
    ///
    /// - Throws: ``SensorLogError`` naming the file, line and column of the first problem.
    public static func read(path: String) throws(SensorLogError) -> SensorLog {
        let reader = try SensorLogReader(path: path)
        var samples: [MotionSample] = []
        var truth: [Quaternion?] = []
        var movement: [Bool] = []
        samples.reserveCapacity(1 << 16)
        while let row = try reader.next() {
            samples.append(row.sample)
            if reader.hasTruth { truth.append(row.truth) }
            if reader.hasMovement { movement.append(row.movement ?? false) }
        }
        return SensorLog(
            path: path, metadata: reader.metadata, samples: samples, truth: reader.hasTruth ? truth : nil,
            movement: reader.hasMovement ? movement : nil, hasMagnetometer: reader.hasMagnetometer)
    }
}
