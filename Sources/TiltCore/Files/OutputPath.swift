#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one check of a path a command writes: a file (``AtomicFileOutput`` checks every file through it) or a folder
/// of files (``makeFolder(_:)``), with a failure that names what is wrong with it.
///
/// Why: each output used to find its own words from an `errno`, and got them wrong at the edges: `--out x/` crashed
/// (a folder name where a file was wanted), `--out /proc/x.png` said that `/proc` does not exist (it exists and takes
/// no files), `--out /tmp/nope/` blamed `/tmp`. Here the path is read as the user spelled it: a name that ends in `/`
/// (or is `.` or `..`) is a folder; a missing folder is named as the one to create (`mkdir -p`); a file standing
/// where a folder should be is named; a folder that exists but refuses the file is named as such.
public enum OutputPath {
    /// Whether `path` is spelled as a folder: empty, ending in `/`, or a last part of `.` or `..`.
    public static func namesFolder(_ path: String) -> Bool {
        if path.isEmpty || path.hasSuffix("/") { return true }
        let last = path.split(separator: "/").last
        return last == "." || last == ".."
    }

    /// The folder that holds `path` (`.` for a bare name, `/` at the top), as spelled: `a/b/c.png` → `a/b`.
    public static func folder(of path: String) -> String {
        let trimmed = trimmingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        var folder = String(trimmed[..<slash])
        while folder.hasSuffix("/") { folder.removeLast() }
        return folder.isEmpty ? "/" : folder
    }

    /// Checks `path` as a file to write, without writing it: it is not spelled as a folder, is not a folder, not an
    /// input, and its folder takes a new file (the temporary file ``AtomicFileOutput`` would write is created and
    /// removed again). For a command that writes its file only after other work, such as a render.
    ///
    /// - Parameters:
    ///   - replacing: Whether an existing file may be replaced (`--force`, or an output that is replaced by design).
    ///   - inputs: Files the command reads; the output may be none of them.
    /// - Throws: ``OutputFileError`` saying what is wrong with `path`.
    public static func checkFile(_ path: String, replacing: Bool, inputs: [String] = []) throws(OutputFileError) {
        try AtomicFileOutput(path: path, replacing: replacing, inputs: inputs).discard()
    }

    /// Makes `path` a folder that files can be written into, creating it and the missing folders above it (as
    /// `mkdir -p`); a folder that already exists is fine.
    ///
    /// - Throws: ``OutputFileError``: `.notFolder` (`path`, or a folder on the way, is a file) or `.folderRefuses`
    ///   (a folder on the way is read-only, not ours, or a system folder that takes no new ones).
    public static func makeFolder(_ path: String) throws(OutputFileError) {
        let target = trimmingSlashes(path)
        var existing = stat()
        if stat(target, &existing) == 0 {
            guard (existing.st_mode & S_IFMT) == S_IFDIR else {
                throw OutputFileError(path: path, problem: .notFolder(target))
            }
            return
        }
        let parent = folder(of: target)
        if parent != target { try makeFolder(parent, for: path) }
        if mkdir(target, 0o777) != 0 && errno != EEXIST {
            throw creationFailure(path, in: parent, code: errno)
        }
    }

    /// ``makeFolder(_:)`` of a folder on the way to `output`, which its errors name.
    private static func makeFolder(_ folder: String, for output: String) throws(OutputFileError) {
        do { try makeFolder(folder) } catch { throw OutputFileError(path: output, problem: error.problem) }
    }

    /// What it means that `path` could not be created in `folder` (the `errno` of `open` or `mkdir`): the folder
    /// is missing, a file stands where a folder should be, or the folder refuses new entries.
    public static func creationFailure(_ path: String, in folder: String, code: Int32) -> OutputFileError {
        switch code {
        case ENOENT:
            if isFolder(folder) { return OutputFileError(path: path, problem: .folderRefuses(folder, code: code)) }
            if let file = firstNonFolder(on: folder) { return OutputFileError(path: path, problem: .notFolder(file)) }
            return OutputFileError(path: path, problem: .missingFolder(folder))
        case ENOTDIR:
            return OutputFileError(path: path, problem: .notFolder(firstNonFolder(on: folder) ?? folder))
        case EACCES, EPERM, EROFS:
            return OutputFileError(path: path, problem: .folderRefuses(folder, code: code))
        default:
            return OutputFileError(path: path, problem: .create(code: code))
        }
    }

    /// `path` without the slashes it ends with (`/` stays `/`).
    static func trimmingSlashes(_ path: String) -> String {
        var trimmed = path
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        return trimmed
    }

    private static func isFolder(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    /// The first part of `path`, from the top, that exists and is not a folder (a file where a folder should be).
    private static func firstNonFolder(on path: String) -> String? {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for part in path.split(separator: "/") {
            prefix = prefix.isEmpty ? String(part) : prefix == "/" ? "/" + part : prefix + "/" + part
            var st = stat()
            guard stat(prefix, &st) == 0 else { return nil }
            if (st.st_mode & S_IFMT) != S_IFDIR { return prefix }
        }
        return nil
    }
}
