import TiltCore

/// A sensor log that cannot be played back: the log, what is wrong and what to do.
package typealias PlaybackError = FileError<PlaybackErrorKind>

/// What is wrong with a log to play back: `unreadable` (missing, damaged, truncated; under `--strict`, a bad row) or
/// `empty` (it holds no samples).
package enum PlaybackErrorKind: FileErrorKind {
    case unreadable, empty

    package var failure: String { "cannot read" }
}
