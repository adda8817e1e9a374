/// The tally of bad rows a reader skipped under ``BadRowPolicy/skip``: how many, which to report, and the summary.
///
/// Reporting every bad row of a badly damaged log would bury everything else, and reporting none would hide the
/// damage; so the first ten are reported and then every thousandth, and the count is given at the end. `tiltd`
/// logs by the same rule (``isReported(_:)``).
package struct SkippedRows: Sendable, Hashable {
    /// Rows skipped so far.
    package private(set) var count = 0
    /// The first skipped row's error (file, line, column and what is wrong).
    package private(set) var first: String?

    package init() {}

    /// Whether the `n`th skipped row (1-based) is reported: the first ten, then every thousandth.
    package static func isReported(_ n: Int) -> Bool {
        n <= 10 || n % 1000 == 0
    }

    /// Counts one skipped row.
    ///
    /// - Parameter reason: Its error, e.g. `log.csv:12 (column gyr_x): the value is not finite`.
    /// - Returns: The line to report (`skipped: …`, with the running count after the tenth), or `nil` when this row
    ///   is not reported.
    package mutating func add(_ reason: String) -> String? {
        count += 1
        if first == nil { first = reason }
        guard Self.isReported(count) else { return nil }
        if count <= 10 { return "skipped: \(reason)" }
        return "skipped: \(reason) (\(count) bad rows so far; reporting every thousandth)"
    }

    /// The closing line, `nil` when nothing was skipped: how many rows of `path` were skipped, the first, and how
    /// to stop at it instead.
    package func summary(of path: String) -> String? {
        guard count > 0, let first else { return nil }
        return "skipped \(count) bad row\(count == 1 ? "" : "s") of \(path) (the first: \(first)); "
            + "pass --strict to stop at the first bad row instead"
    }
}
