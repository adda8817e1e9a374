/// A file a command writes could not be made or written: which file, what failed, and what to do.
///
/// An I/O failure, not a usage mistake, so ArgumentParser prints it as `error: …` without the usage text and exits
/// with status 1.
struct OutputFileError: Error, CustomStringConvertible {
    /// The step that failed.
    enum Step {
        /// The file could not be created (missing folder, no permission).
        case create
        /// The file was created but could not be opened for writing.
        case open
        /// Writing or closing failed part way (`reason` says why).
        case write(reason: String)
    }

    let step: Step
    let path: String

    var description: String {
        switch step {
        case .create: "cannot create \(path); check that its folder exists and is writable"
        case .open: "cannot open \(path) for writing"
        case .write(let reason): "cannot write \(path): \(reason); the disk may be full"
        }
    }
}
