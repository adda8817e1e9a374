import ArgumentParser
import FoundationEssentials
import TiltCore
import TiltSensors

/// `--strict`, for every `tilt` command that reads a sensor log: the bad-row policy (docs/log-format.md, "Bad rows
/// and bad files") and how the command reads a log under it.
struct StrictOption: ParsableArguments {
    @Flag(
        help: """
            Stop at the first bad row of the log with its file, line and column (default: skip bad rows, report \
            them on standard error and count them; see docs/log-format.md).
            """)
    var strict = false

    /// The policy `--strict` asks for.
    var policy: BadRowPolicy { BadRowPolicy(strict: strict) }

    /// Reads the whole log at `path` under this policy; skipped rows and their summary go to standard error.
    func read(_ path: String) throws(SensorLogError) -> SensorLog {
        try SensorLog.read(path: path, badRows: policy) { StandardStream.error.write($0 + "\n") }
    }
}
