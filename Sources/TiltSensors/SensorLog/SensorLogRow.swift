import TiltCore

/// One parsed data row of a sensor log.
public struct SensorLogRow: Sendable, Equatable {
    public var sample: MotionSample
    /// The reference orientation, if the log has `truth_*` columns and this row's are finite.
    public var truth: Quaternion?
    /// The `movement` column, if present.
    public var movement: Bool?
    /// The row's 1-based line number in the file.
    public var line: Int
    /// Samples missing just before this one: a `# gap` marker before the row, or a time that goes back from the
    /// previous row's (docs/log-format.md). The filter is not fed the jump as motion (``SampleGap``).
    public var gap: SampleGap?
}
