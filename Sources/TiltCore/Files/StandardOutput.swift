// `stdout` is a C global variable, which Swift 6 treats as unsafe shared state; setting its buffering once, before
// any output, is what the C library documents as safe, so the check is relaxed for this file only.
#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Darwin)
    @preconcurrency import Darwin
#endif

/// Standard output for commands that stream (`tilt watch`, `tilt replay`, `tilt fuse --output -`, `tiltfx serve`'s
/// URL, `tiltfx bench`): the one place they write it, and the one place a reader that went away ends them.
///
/// Why line by line: the C library buffers standard output in 4 KiB blocks when it is not a terminal, so a reader
/// of a pipe saw a `tilt watch --json --rate 2` line only seconds late, and SIGINT or SIGTERM (whose default action
/// ends the process without flushing) lost whatever was still buffered. ``line(_:)`` hands each line to the pipe or
/// file in one write as it is finished; a signal can then only cut a line still being written, never one already
/// printed, and the process still ends *by* the signal, as shells and supervisors expect.
///
/// Why the reader matters: a process that uses swift-nio (every tiltd client, `tiltfx serve`) ignores SIGPIPE, so
/// a write to a pipe whose reader closed (`tilt watch | head -2`) fails with `EPIPE` instead of ending it, and
/// `print` drops that error: the command ran on for ever, writing into nothing. Every write here that meets `EPIPE`
/// ends the process by SIGPIPE, as a program that never ignored it ends (status 141 in a shell), whoever set it
/// aside.
public enum StandardOutput {
    /// Flushes the C library's standard output at every newline, for what is still written by `print`. Call it
    /// before the command prints anything.
    public static func streamLines() {
        setvbuf(stdout, nil, _IOLBF, 0)
    }

    /// Writes `text` and a newline to standard output in one write (no C buffer).
    ///
    /// When the reader of a pipe has gone, the process ends by SIGPIPE (see the type's discussion).
    /// - Throws: ``OutputFileError`` (`.write`, path "standard output") with the system's reason, e.g. a full disk.
    public static func line(_ text: String) throws(OutputFileError) {
        try write(text + "\n")
    }

    /// Writes `text` straight to standard output (no C buffer), for bulk data such as `tilt fuse --output -`, or a
    /// line redrawn in place.
    ///
    /// When the reader of a pipe has gone, the process ends by SIGPIPE (see the type's discussion).
    /// - Throws: ``OutputFileError`` (`.write`, path "standard output") with the system's reason, e.g. a full disk.
    public static func write(_ text: String) throws(OutputFileError) {
        var text = text
        // Lines `print` left in the C buffer go first, so that the order on the pipe is the order of the calls.
        fflush(stdout)
        if let code = text.withUTF8({ writeAll(STDOUT_FILENO, UnsafeRawBufferPointer($0)) }) {
            if code == EPIPE { endBecauseReaderLeft() }
            throw OutputFileError(path: "standard output", problem: .write(code: code))
        }
    }

    /// Whether `descriptor` (default: standard output) is a pipe or socket whose reader has closed it: `poll`
    /// reports an error on the writing end. For a command that writes its output through another library (a
    /// gzip stream) and must still notice.
    public static func readerLeft(_ descriptor: Int32 = STDOUT_FILENO) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        guard poll(&entry, 1, 0) == 1 else { return false }
        return entry.revents & Int16(POLLERR) != 0
    }

    /// Ends the process by SIGPIPE, with the signal's default action restored: what a write to a pipe without a
    /// reader does to a program that never ignored the signal.
    public static func endBecauseReaderLeft() -> Never {
        StopSignals.resend(SIGPIPE)
    }
}
