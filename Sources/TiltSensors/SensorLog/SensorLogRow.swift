import TiltCore

/// One parsed data row of a sensor log.
package struct SensorLogRow: Sendable, Equatable {
    package var sample: MotionSample
    /// The reference orientation, if the log has `truth_*` columns and this row's are finite.
    package var truth: Quaternion?
    /// The `movement` column, if present.
    package var movement: Bool?
    /// The row's 1-based line number in the file.
    package var line: Int
    /// Samples missing just before this one: a `# gap` marker before the row, or a time that goes back from the
    /// previous row's (docs/log-format.md). The filter is not fed the jump as motion (``SampleGap``).
    package var gap: SampleGap?
}
