import Glibc
import TiltGL

/// Watches the folders of a preset's files through inotify and says when one of those files changed.
///
/// Folders are watched rather than files, so editors that save by writing a new file and renaming it over the old
/// one are seen too. Linux only.
package final class FileWatcher {
    private let fd: Int32
    private var watches: [Int32: String] = [:]
    private let names: Set<String>

    /// Starts watching the folders holding `files`.
    /// - Throws: `RenderError.read` when inotify cannot be set up.
    package init(files: [String]) throws(RenderError) {
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw .read("inotify", reason: String(cString: strerror(errno))) }
        names = Set(files.map { String($0.split(separator: "/").last ?? "") })
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_MODIFY | IN_DELETE)
        for dir in Set(files.map(Self.folder)) {
            let wd = inotify_add_watch(fd, dir, mask)
            if wd >= 0 { watches[wd] = dir }
        }
    }

    deinit { close(fd) }

    private static func folder(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Waits up to `timeoutMilliseconds` (-1: forever) for a change to a watched file, then lets a burst of events
    /// settle for `settleMilliseconds`.
    /// - Returns: whether a watched file changed.
    package func waitForChange(timeoutMilliseconds: Int32, settleMilliseconds: Int32 = 15) -> Bool {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&pfd, 1, timeoutMilliseconds) > 0 else { return false }
        var changed = drain()
        // Editors write in several steps; wait for the burst to end so we compile the finished file.
        while poll(&pfd, 1, settleMilliseconds) > 0 { changed = drain() || changed }
        return changed
    }

    /// Reads pending events without blocking.
    /// - Returns: whether any names a watched file.
    package func drain() -> Bool {
        var changed = false
        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            var offset = 0
            buffer.withUnsafeBytes { raw in
                while offset + MemoryLayout<inotify_event>.size <= n {
                    let length = Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                    let nameStart = offset + MemoryLayout<inotify_event>.size
                    let nameBytes = raw[nameStart..<min(n, nameStart + length)].prefix { $0 != 0 }
                    let name = String(decoding: nameBytes, as: UTF8.self)
                    if names.contains(name) { changed = true }
                    offset = nameStart + length
                }
            }
        }
        return changed
    }
}
