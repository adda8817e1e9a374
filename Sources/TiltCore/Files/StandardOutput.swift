// `stdout` is a C global variable, which Swift 6 treats as unsafe shared state; setting its buffering once, before
// any output, is what the C library documents as safe, so the check is relaxed for this file only.
#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Darwin)
    @preconcurrency import Darwin
#endif

/// Standard output for commands that stream lines (`tilt watch`, `tilt replay`, `tiltfx bench`).
///
/// Why: the C library buffers standard output in 4 KiB blocks when it is not a terminal, so a reader of a pipe saw
/// a `tilt watch --json --rate 2` line only seconds late, and SIGINT or SIGTERM (whose default action ends the
/// process without flushing) lost whatever was still buffered. Line buffering hands each line to the pipe or file
/// as `print` finishes it; a signal can then only cut a line still being written, never one already printed, and
/// the process still ends *by* the signal, as shells and supervisors expect.
public enum StandardOutput {
    /// Flushes standard output at every newline. Call it before the command prints anything.
    public static func streamLines() {
        setvbuf(stdout, nil, _IOLBF, 0)
    }

    /// Writes `text` straight to standard output (no C buffer), for bulk data such as `tilt fuse --output -`.
    ///
    /// - Throws: ``OutputFileError`` (`.write`, path "standard output") with the system's reason, e.g. a full disk.
    public static func write(_ text: String) throws(OutputFileError) {
        var text = text
        if let code = text.withUTF8({ writeAll(STDOUT_FILENO, UnsafeRawBufferPointer($0)) }) {
            throw OutputFileError(path: "standard output", problem: .write(code: code))
        }
    }
}
