/// A picture that cannot be used: the file, what is wrong with it, and what to do.
public struct ImageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Problem: Sendable, Hashable {
        /// The file cannot be opened or read (missing, a folder, no permission).
        case unreadable
        /// The file is empty.
        case empty
        /// The bytes are not a PNG or JPEG picture.
        case unknownFormat
        /// The file is a PNG or JPEG, but cut short or damaged.
        case damaged
        /// The picture has more pixels than tilt decodes.
        case tooLarge
        /// The picture is larger than the GL can hold and may not be shrunk.
        case overTextureLimit
    }

    /// The picture's path as given.
    public let path: String
    /// The kind of problem.
    public let problem: Problem
    /// What is wrong, and what to do.
    public let reason: String

    /// An error about `path`.
    public init(path: String, problem: Problem, reason: String) {
        self.path = path
        self.problem = problem
        self.reason = reason
    }

    public var description: String { "cannot use image \(path): \(reason)" }
}
