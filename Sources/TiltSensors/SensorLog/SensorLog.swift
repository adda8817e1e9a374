import TiltCore

/// A whole sensor log in memory, for offline work (`tilt fuse`, benchmarks, tests).
package struct SensorLog: Sendable {
    package var path: String
    package var metadata: [String: String]
    package var samples: [MotionSample]
    /// Reference orientations per sample (nil where unknown), if the log has `truth_*` columns.
    package var truth: [Quaternion?]?
    /// The `movement` column per sample, if present.
    package var movement: [Bool]?
    package var hasMagnetometer: Bool
    /// The bad rows skipped while reading (none under ``BadRowPolicy/strict``).
    package var skipped: SkippedRows
    /// The gaps, by the index in ``samples`` of the sample each comes before (`samples.count` for one after the last
    /// sample): `# gap` markers and times that go back (docs/log-format.md). Fusing does not integrate across them (``MotionPipeline/markGap()``).
    package var gaps: [Int: SampleGap] = [:]

    package init(
        path: String, metadata: [String: String] = [:], samples: [MotionSample], truth: [Quaternion?]? = nil,
        movement: [Bool]? = nil, hasMagnetometer: Bool, skipped: SkippedRows = SkippedRows()
    ) {
        self.path = path
        self.skipped = skipped
        self.metadata = metadata
        self.samples = samples
        self.truth = truth
        self.movement = movement
        self.hasMagnetometer = hasMagnetometer
    }

    /// The sampling rate from the `sampling_rate_hz` metadata, else from the median sample interval.
    package var samplingRate: Double? {
        if let text = metadata["sampling_rate_hz"], let v = Double(text), v > 0 { return v }
        guard samples.count > 2 else { return nil }
        var dts = zip(samples.dropFirst(), samples).map { $0.time - $1.time }.filter { $0 > 0 }
        guard !dts.isEmpty else { return nil }
        dts.sort()
        return 1 / dts[dts.count / 2]
    }

    /// Reads the whole log at `path` (`.csv` or `.csv.gz`), applying the bad-row `policy`.
    ///
    /// - Parameters:
    ///   - policy: ``BadRowPolicy/skip`` (the default) skips and counts malformed rows into ``skipped``;
    ///     ``BadRowPolicy/strict`` stops at the first.
    ///   - report: Called with each line to show a person (on standard error): `skipped: FILE:LINE …` for the
    ///     skipped rows ``SkippedRows`` reports, then, when any were skipped, its summary.
    /// - Throws: ``SensorLogError`` naming the file, line and column of the problem: one the policy does not skip, or
    ///   a log that cannot be read, has a bad header or is truncated.
    package static func read(
        path: String, badRows policy: BadRowPolicy = .skip, report: (String) -> Void = { _ in }
    ) throws(SensorLogError) -> SensorLog {
        let reader = try SensorLogReader(path: path)
        var samples: [MotionSample] = []
        var truth: [Quaternion?] = []
        var movement: [Bool] = []
        var skipped = SkippedRows()
        var gaps: [Int: SampleGap] = [:]
        samples.reserveCapacity(1 << 16)
        while true {
            let next: SensorLogRow?
            do throws(SensorLogError) {
                next = try reader.next()
            } catch {
                guard policy == .skip, error.isSkippable else { throw error }
                if let line = skipped.add(error.description) { report(line) }
                continue
            }
            guard let row = next else { break }
            if let gap = row.gap { gaps[samples.count] = gap }
            samples.append(row.sample)
            if reader.hasTruth { truth.append(row.truth) }
            if reader.hasMovement { movement.append(row.movement ?? false) }
        }
        if let gap = reader.gapAfterLastRow { gaps[samples.count] = gap }
        if let summary = skipped.summary(of: path) { report(summary) }
        var log = SensorLog(
            path: path, metadata: reader.metadata, samples: samples, truth: reader.hasTruth ? truth : nil,
            movement: reader.hasMovement ? movement : nil, hasMagnetometer: reader.hasMagnetometer, skipped: skipped)
        log.gaps = gaps
        return log
    }
}
