import TiltCore

/// A PNG file that could not be written or read: which, the file, and why (with what to do).
public struct PNGFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What failed.
    public enum Kind: Sendable, Hashable {
        /// Encoding or writing the file.
        case write
        /// Opening or decoding the file.
        case read
    }

    /// What failed.
    public let kind: Kind
    /// The file, as given (`(memory)` for an encoding that never reached a file).
    public let path: String
    /// Why, and what to do.
    public let reason: String
    /// What was wrong with the file when it could not be written (a folder's name, a missing folder), or `nil`.
    public let output: OutputFileError.Problem?

    /// An error about `path`.
    public init(_ kind: Kind, path: String, reason: String) {
        self.kind = kind
        self.path = path
        self.reason = reason
        output = nil
    }

    /// The file `path` could not be written: `error` says why (``OutputPath``'s words, which name the file).
    public init(writing path: String, _ error: OutputFileError) {
        kind = .write
        self.path = path
        reason = error.description
        output = error.problem
    }

    public var description: String {
        if output != nil { return reason }
        return switch kind {
        case .write: "cannot write \(path): \(reason)"
        case .read: "cannot read \(path): \(reason)"
        }
    }
}
