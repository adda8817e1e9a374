import FoundationEssentials
import TiltCore
import TiltSensors

#if canImport(Glibc)
    import Glibc
#endif

/// Who has a device node open (Linux only), found by reading the `/proc/PID/fd` links.
///
/// Only processes whose `fd` folder this process may read are seen: the same user's, or all of them for root. A
/// holder in another mount namespace shows the node by its path there, which is usually the same.
struct IIONodeHolder: Equatable {
    /// The process's `comm`, e.g. `iio-sensor-proxy`.
    var name: String
    var pid: Int

    /// How logs and `status` name it: `iio-sensor-proxy (pid 123)`.
    var description: String { "\(name) (pid \(pid))" }

    /// The first process other than this one with `node` open, if any can be seen.
    static func find(node: String, procRoot: String = "/proc") -> IIONodeHolder? {
        let me = Int(getpid())
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: procRoot) else { return nil }
        for entry in entries {
            guard let pid = Int(entry), pid != me else { continue }
            let fdFolder = "\(procRoot)/\(entry)/fd"
            guard let fds = try? FileManager.default.contentsOfDirectory(atPath: fdFolder) else { continue }
            for fd in fds where linkTarget("\(fdFolder)/\(fd)") == node {
                return IIONodeHolder(name: processCommand(pid: pid, procRoot: procRoot) ?? "?", pid: pid)
            }
        }
        return nil
    }

    private static func linkTarget(_ path: String) -> String? {
        var buf = [CChar](repeating: 0, count: 4096)
        let n = readlink(path, &buf, buf.count - 1)
        guard n > 0 else { return nil }
        return String(decoding: buf[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
