import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file that appears under its name only once it is complete: written to a temporary file in the same folder,
/// then synced and renamed over the final path by ``commit()``.
///
/// Why: a run that is stopped, fails or is killed part way must neither leave a half file under the name a user
/// asked for nor destroy the file that was there before. Creating the temporary file at once also makes a command
/// fail before any work (waiting for samples, fusing a log) when the folder is missing or not writable.
///
/// Refusals, checked when it is made: a path spelled as a folder (`x/`, `.`), an existing file unless `replacing` is
/// set (`--force`), a folder, and any of `inputs` (same path, symbolic or hard link: the same device and inode) even
/// with `replacing`; a folder that is missing or takes no files is named (``OutputPath``).
///
/// Write through ``write(_:)``, or open ``temporaryPath`` with another writer (a gzip stream) and close it before
/// ``commit()``. The temporary file is named `.partial-XXXXXX-NAME` so that it ends like the output (a `.gz` stays a
/// `.gz`); it is removed by ``discard()`` or when the object goes away uncommitted, and only a killed process leaves it.
///
/// What is not a regular file is written straight, without a temporary file or `--force`: a device (`/dev/null`,
/// `/dev/stdout` on a terminal), a named pipe or a socket holds no data to lose, and renaming over it would replace
/// the device node itself. A symbolic link to a regular file stays a link; its target is replaced.
public final class AtomicFileOutput {
    /// The final path, as given.
    public let path: String
    /// Where the data is written until ``commit()`` (``path`` itself when it is a device or a pipe).
    public let temporaryPath: String
    /// The file the rename replaces: ``path`` with symbolic links resolved.
    private let target: String
    /// Whether ``path`` is written in place (not a regular file).
    private let inPlace: Bool
    private var descriptor: Int32
    private var finished = false
    /// The SIGINT and SIGTERM watchers of ``discardOnInterrupt()``, cancelled when the output is finished.
    private var interruptWatch: StopSignals?

    /// Checks the output and creates its temporary file.
    ///
    /// - Parameters:
    ///   - path: The file to write.
    ///   - replacing: Replace an existing file (`--force`); without it an existing file is refused.
    ///   - inputs: Files the command reads; the output may be none of them, even with `replacing`.
    /// - Throws: ``OutputFileError`` saying which refusal or what the system said (`No such file or directory`).
    public init(path: String, replacing: Bool, inputs: [String] = []) throws(OutputFileError) {
        self.path = path
        if OutputPath.namesFolder(path) { throw OutputFileError(path: path, problem: .namesFolder) }
        var existing = stat()
        let exists = stat(path, &existing) == 0
        if exists {
            for input in inputs {
                var other = stat()
                if stat(input, &other) == 0, other.st_dev == existing.st_dev, other.st_ino == existing.st_ino {
                    throw OutputFileError(path: path, problem: .isInput(input))
                }
            }
            if (existing.st_mode & S_IFMT) == S_IFDIR { throw OutputFileError(path: path, problem: .isFolder) }
            if (existing.st_mode & S_IFMT) != S_IFREG {
                let fd = open(path, O_WRONLY | O_CLOEXEC)
                guard fd >= 0 else { throw OutputFileError(path: path, problem: .create(code: errno)) }
                (temporaryPath, target, inPlace, descriptor) = (path, path, true, fd)
                return
            }
            if !replacing { throw OutputFileError(path: path, problem: .exists) }
        }
        target = exists ? Self.resolvingLinks(path) : path
        inPlace = false
        let (folder, name) = Self.split(target)
        var made: (path: String, descriptor: Int32)?
        for _ in 0..<100 {
            let candidate = "\(folder)/.partial-\(Self.randomTag())-\(name)"
            let fd = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if fd >= 0 {
                made = (candidate, fd)
                break
            }
            if errno != EEXIST { throw OutputPath.creationFailure(path, in: folder, code: errno) }
        }
        guard let made else { throw OutputFileError(path: path, problem: .create(code: EEXIST)) }
        temporaryPath = made.path
        descriptor = made.descriptor
        // A replaced file keeps its permissions (a private recording stays private).
        if exists { _ = fchmod(descriptor, existing.st_mode & 0o7777) }
    }

    deinit {
        if !finished { discard() }
    }

    /// Until the output is committed or discarded, SIGINT and SIGTERM remove the temporary file and then end the
    /// process as the signal would have (so Ctrl-C on `tilt fuse` leaves no `.partial-…` file behind).
    ///
    /// For commands that have no signal handling of their own; one that stops cleanly on a signal (`tilt record`)
    /// commits instead.
    /// - Parameter message: What to say on standard error first (what was kept, what was not), or `nil`.
    public func discardOnInterrupt(saying message: String? = nil) {
        guard !inPlace, !finished, interruptWatch == nil else { return }
        let temporary = temporaryPath
        let line = message.map { "\n" + $0 + "\n" }
        interruptWatch = StopSignals { number in
            unlink(temporary)
            if var line { _ = line.withUTF8 { writeAll(STDERR_FILENO, UnsafeRawBufferPointer($0)) } }
            StopSignals.resend(number)
        }
    }

    /// Whether the output is a pipe or socket written in place whose reader has gone (`tilt record --output
    /// /dev/stdout | head`): the command should end as ``StandardOutput/endBecauseReaderLeft()`` does.
    public var readerLeft: Bool {
        inPlace && descriptor >= 0 && StandardOutput.readerLeft(descriptor)
    }

    /// The temporary files (`.partial-XXXXXX-NAME`) of earlier outputs to `path` that a killed process left
    /// beside it, oldest first, as paths in `path`'s folder.
    public static func leftovers(of path: String) -> [String] {
        let (folder, name) = split(OutputPath.trimmingSlashes(path))
        guard let dir = opendir(folder) else { return [] }
        defer { closedir(dir) }
        var found: [(path: String, time: Int)] = []
        while let entry = readdir(dir) {
            let entryName = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            // `.partial-` + six letters and digits + `-` + the name.
            guard entryName.hasPrefix(".partial-"), entryName.utf8.count == 16 + name.utf8.count,
                entryName.hasSuffix("-" + name)
            else { continue }
            let full = !path.contains("/") ? entryName : folder == "/" ? "/" + entryName : folder + "/" + entryName
            var st = stat()
            guard stat(full, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { continue }
            found.append((full, Int(st.st_mtim.tv_sec)))
        }
        return found.sorted { ($0.time, $0.path) < ($1.time, $1.path) }.map(\.path)
    }

    /// Stops watching for signals and gives them their default action back.
    private func endInterruptWatch() {
        interruptWatch?.cancel()
        interruptWatch = nil
    }

    /// Appends `text` to the temporary file.
    ///
    /// - Throws: ``OutputFileError`` (`.write`) when the disk is full or the file cannot be written.
    public func write(_ text: String) throws(OutputFileError) {
        var text = text
        if let code = text.withUTF8({ write(UnsafeRawBufferPointer($0)) }) {
            throw OutputFileError(path: path, problem: .write(code: code))
        }
    }

    /// Appends `bytes` to the temporary file.
    ///
    /// - Throws: ``OutputFileError`` (`.write`) when the disk is full or the file cannot be written.
    public func write(_ bytes: [UInt8]) throws(OutputFileError) {
        if let code = bytes.withUnsafeBytes({ write($0) }) {
            throw OutputFileError(path: path, problem: .write(code: code))
        }
    }

    private func write(_ bytes: UnsafeRawBufferPointer) -> Int32? {
        writeAll(descriptor, bytes)
    }

    /// Syncs the temporary file to disk and renames it over ``path``: the output appears complete or not at all.
    ///
    /// A writer that opened ``temporaryPath`` itself must have closed it first.
    /// - Throws: ``OutputFileError`` when syncing or renaming fails; the temporary file is then removed.
    public func commit() throws(OutputFileError) {
        precondition(!finished, "AtomicFileOutput.commit() after commit() or discard()")
        endInterruptWatch()
        if inPlace {
            finished = true
            defer { descriptor = -1 }
            if close(descriptor) != 0 { throw OutputFileError(path: path, problem: .write(code: errno)) }
            return
        }
        if fsync(descriptor) != 0 {
            let code = errno
            discard()
            throw OutputFileError(path: path, problem: .write(code: code))
        }
        if close(descriptor) != 0 {
            let code = errno
            descriptor = -1
            discard()
            throw OutputFileError(path: path, problem: .write(code: code))
        }
        descriptor = -1
        if rename(temporaryPath, target) != 0 {
            let code = errno
            discard()
            throw OutputFileError(path: path, problem: .rename(code: code))
        }
        finished = true
    }

    /// Removes the temporary file and leaves ``path`` as it was. Safe to call more than once.
    public func discard() {
        endInterruptWatch()
        if descriptor >= 0 {
            close(descriptor)
            descriptor = -1
        }
        if !finished && !inPlace { unlink(temporaryPath) }
        finished = true
    }

    /// `path` with every symbolic link resolved (`realpath`), or `path` when that fails.
    private static func resolvingLinks(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The folder (`.` for a bare name) and the file name of `path`.
    static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let folder = String(path[..<slash])
        return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
    }

    private static func randomTag() -> String {
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        return String((0..<6).map { _ in letters.randomElement()! })
    }
}

/// Writes all of `bytes` to `descriptor`, retrying after a signal or a short write.
///
/// - Returns: The `errno` of a failure, or `nil`.
func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
    var done = 0
    while done < bytes.count {
        let n = write(descriptor, bytes.baseAddress! + done, bytes.count - done)
        if n < 0 {
            if errno == EINTR { continue }
            return errno
        }
        done += n
    }
    return nil
}
