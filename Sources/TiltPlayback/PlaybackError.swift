import TiltCore

/// A sensor log that cannot be played back: the log, what is wrong and what to do.
public typealias PlaybackError = FileError<PlaybackErrorKind>

/// What is wrong with a log to play back: `unreadable` (missing, damaged, truncated; under `--strict`, a bad row) or
/// `empty` (it holds no samples).
public enum PlaybackErrorKind: FileErrorKind {
    case unreadable, empty

    public var failure: String { "cannot read" }
}
