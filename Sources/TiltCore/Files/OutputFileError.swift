#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file a command writes was refused or could not be written: which file, what went wrong, and what to do.
///
/// An I/O failure, not a usage mistake: a command that throws it ends with the message on standard error and a
/// non-zero exit status, and the file under `path` is left as it was (``AtomicFileOutput`` only replaces it at the
/// end of a complete write).
public struct OutputFileError: Error, CustomStringConvertible, Hashable, Sendable {
    /// The output file as the user named it.
    public let path: String
    public let problem: Problem

    public init(path: String, problem: Problem) {
        (self.path, self.problem) = (path, problem)
    }

    /// What went wrong.
    public enum Problem: Hashable, Sendable {
        /// The file exists and replacing it was not asked for (`--force`).
        case exists
        /// The output is this input file (same path, link or inode): writing would destroy what is being read.
        case isInput(String)
        /// The output names a folder.
        case isFolder
        /// The output is spelled as a folder (`x/`, `.`, `..`) where a file is wanted.
        case namesFolder
        /// The folder that would hold the output does not exist (the one to create).
        case missingFolder(String)
        /// A folder is wanted here, but this path (the output, or a folder on the way to it) is not one.
        case notFolder(String)
        /// The folder exists but takes no new file or folder (`code`: `EACCES`, `EPERM`, `EROFS`, or `ENOENT` for a
        /// system folder such as `/proc`).
        case folderRefuses(String, code: Int32)
        /// The temporary file next to the output could not be created (`code` is the `errno`).
        case create(code: Int32)
        /// Writing or finishing the temporary file failed part way (`code` is the `errno`).
        case write(code: Int32)
        /// The finished file could not be renamed over the output (`code` is the `errno`).
        case rename(code: Int32)
    }

    /// The `errno` behind the failure, for callers that word their own advice (0 for a refusal).
    public var code: Int32 {
        switch problem {
        case .create(let code), .write(let code), .rename(let code), .folderRefuses(_, let code): code
        case .exists, .isInput, .isFolder, .namesFolder, .missingFolder, .notFolder: 0
        }
    }

    /// The system's words for ``code`` ("No such file or directory"), for callers that word their own message.
    public var reason: String { String(cString: strerror(code)) }

    public var description: String {
        switch problem {
        case .exists:
            "\(path) already exists; pass --force to replace it, or --output FILE to write elsewhere"
        case .isInput(let input):
            "\(path) is the input \(input); write the output to another file (not even --force replaces the input)"
        case .isFolder:
            "\(path) is a folder; give the path of a file to write"
        case .namesFolder:
            "\(path) names a folder; give the path of a file to write (e.g. \(Self.example(path)))"
        case .missingFolder(let folder):
            "cannot create \(path): the folder \(folder) does not exist; create it (mkdir -p \(folder)) or write "
                + "elsewhere"
        case .notFolder(let folder) where folder == path:
            "\(path) is a file, not a folder; give a folder's path (or move the file away)"
        case .notFolder(let folder):
            "cannot create \(path): \(folder) is a file, not a folder"
        case .folderRefuses(let folder, let code):
            switch code {
            case EROFS: "cannot create \(path): the folder \(folder) is read-only; write elsewhere"
            case EACCES, EPERM:
                "cannot create \(path): no permission to write in the folder \(folder); choose a folder you can "
                    + "write to"
            default:
                "cannot create \(path): the folder \(folder) takes no new files (\(reason): a system folder such "
                    + "as /proc or /sys); write elsewhere"
            }
        case .create:
            "cannot create \(path): \(reason); check that its folder exists and is writable"
        case .write(let code):
            code == ENOSPC
                ? "cannot write \(path): the disk is full (\(reason)); free some space and run it again"
                : "cannot write \(path): \(reason)"
        case .rename:
            "cannot put the finished file in place as \(path): \(reason); \(path) was left as it was"
        }
    }

    /// A file name inside the folder `path` names, for the advice of ``Problem/namesFolder``.
    private static func example(_ path: String) -> String {
        var folder = path
        while folder.count > 1 && folder.hasSuffix("/") { folder.removeLast() }
        return folder == "/" ? "/NAME" : folder + "/NAME"
    }
}
