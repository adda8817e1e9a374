import TiltCore

/// A PNG file that could not be written or read: which, the file (`(memory)` for an encoding that never reached a
/// file), and why (with what to do).
package typealias PNGFileError = FileError<PNGFileErrorKind>

/// What failed with a PNG file: `write` (encoding or writing it), `read` (opening or decoding it), or `output` (the
/// path cannot take the file: a folder's name, a missing folder, …; ``OutputPath``'s words, which name the file, are
/// then the whole message).
package enum PNGFileErrorKind: FileErrorKind {
    case write, read
    case output(OutputFileError.Problem)

    package var failure: String {
        switch self {
        case .write, .output: "cannot write"
        case .read: "cannot read"
        }
    }

    package func message(path: String, reason: String) -> String {
        if case .output = self { return reason }
        return "\(failure) \(path): \(reason)"
    }
}

extension FileError where Kind == PNGFileErrorKind {
    /// The file `path` could not be written: `error` says why.
    package init(writing path: String, _ error: OutputFileError) {
        self.init(.output(error.problem), path: path, reason: error.description)
    }

    /// What was wrong with the path when the file could not be written (a folder's name, a missing folder), or `nil`.
    package var output: OutputFileError.Problem? {
        if case .output(let problem) = kind { problem } else { nil }
    }
}
