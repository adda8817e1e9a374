import TiltCore

/// A PNG file that could not be written or read: which, the file (`(memory)` for an encoding that never reached a
/// file), and why (with what to do).
public typealias PNGFileError = FileError<PNGFileErrorKind>

/// What failed with a PNG file: `write` (encoding or writing it) or `read` (opening or decoding it).
public enum PNGFileErrorKind: FileErrorKind {
    case write, read

    public var failure: String {
        switch self {
        case .write: "cannot write"
        case .read: "cannot read"
        }
    }
}
