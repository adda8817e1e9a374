/// What a reader of sensor logs does with a malformed row: the one policy of every command that reads logs (`tiltd
/// --replay`, `tilt replay`, `tilt fuse`, `tilt bench fusion`, `tilt calibrate --input`, `tiltfx render --replay`),
/// described once in docs/log-format.md under "Bad rows and bad files".
///
/// Only a row error (``SensorLogError/Kind/row``) is subject to it; a log that cannot be opened or read, has a bad
/// header, or is truncated is an error under either policy.
package enum BadRowPolicy: Sendable, Hashable {
    /// Skip the row, count it, and go on (the default): one corrupt row costs one sample, not the whole log. The
    /// reader reports the first ten and then every thousandth (``SkippedRows``), and the count at the end.
    case skip
    /// Stop at the first bad row with its error (`--strict`), for data that must be complete.
    case strict

    /// `.strict` when `strict`, else `.skip`: what a `--strict` flag asks for.
    package init(strict: Bool) {
        self = strict ? .strict : .skip
    }
}
