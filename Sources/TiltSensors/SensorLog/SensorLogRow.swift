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
}
