import Glibc

/// The reading end of ``ShellControl``'s lines: a file descriptor (standard input when the GNOME Shell extension
/// starts `tiltfx wallpaper --gnome`), read without blocking whenever the desktop waits for events.
///
/// The end of the file means the shell is gone (or asked the wallpaper to stop by closing the pipe): ``ended``.
package final class ShellChannel {
    /// The descriptor read; the desktop polls it beside the display server's.
    package let fd: Int32
    /// What the shell said so far.
    package private(set) var control = ShellControl()
    /// The shell closed its end.
    package private(set) var ended = false
    private let warn: (String) -> Void

    /// Reads `fd` from now on (it is made non-blocking).
    /// - Parameter warn: told each problem with a line (logged as a warning).
    package init(fd: Int32 = STDIN_FILENO, warn: @escaping (String) -> Void) {
        self.fd = fd
        self.warn = warn
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
    }

    /// Reads what is there now; returns whether what the shell says changed (or the channel ended).
    @discardableResult
    package func read() -> Bool {
        guard !ended else { return false }
        let before = control
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                for problem in control.feed(buffer[0..<count]) { warn("control channel: \(problem)") }
                continue
            }
            if count == 0 {
                ended = true
                return true
            }
            if errno == EINTR { continue }
            if errno != EAGAIN && errno != EWOULDBLOCK {
                warn("control channel: reading it failed (\(String(cString: strerror(errno)))); stopping")
                ended = true
                return true
            }
            break
        }
        return control != before
    }
}
