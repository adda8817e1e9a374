import FoundationEssentials
import TiltCore

/// The programs that hold a device file open, found through `/proc/PID/fd` (those this user may read), to say who
/// keeps a camera busy.
enum DeviceHolders {
    /// `PID (name)` of each process with `path` open, in PID order; empty when none is visible.
    static func find(_ path: String, proc: String = "/proc") -> [String] {
        let files = FileManager.default
        let target = PathText.resolvingLinks(path)
        let me = ProcessInfo.processInfo.processIdentifier
        let pids = ((try? files.contentsOfDirectory(atPath: proc)) ?? []).compactMap(Int32.init).sorted()
        var found: [String] = []
        for pid in pids where pid != me {
            let fdDirectory = "\(proc)/\(pid)/fd"
            guard let fds = try? files.contentsOfDirectory(atPath: fdDirectory) else { continue }
            let holds = fds.contains { fd in
                (try? files.destinationOfSymbolicLink(atPath: "\(fdDirectory)/\(fd)")) == target
            }
            guard holds else { continue }
            let name = (try? String(contentsOfFile: "\(proc)/\(pid)/comm", encoding: .utf8))?
                .trimmingWhitespace
            found.append(name.map { "\(pid) (\($0))" } ?? "\(pid)")
        }
        return found
    }
}
