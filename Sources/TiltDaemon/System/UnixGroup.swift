import FoundationEssentials
import TiltCore

#if canImport(Glibc)
    import Glibc
#endif

/// A Unix group by name and id, looked up in the group database (`/etc/group`, NSS).
package struct UnixGroup: Sendable, Hashable, CustomStringConvertible {
    /// The group's name (or its number, when it has no name).
    package var name: String
    package var gid: UInt32

    package init(name: String, gid: UInt32) {
        self.name = name
        self.gid = gid
    }

    package var description: String { "'\(name)' (gid \(gid))" }

    /// Looks up a group by name, or by number.
    ///
    /// - Parameters:
    ///   - nameOrID: A group name (`tilt`) or a numeric gid (`1001`).
    ///   - key: The config key or flag it came from, for the error.
    /// - Throws: ``DaemonError`` when no such group exists, saying how to create it.
    package static func lookup(_ nameOrID: String, key: String) throws(DaemonError) -> UnixGroup {
        if let gid = UInt32(nameOrID) {
            return UnixGroup(name: name(of: gid) ?? nameOrID, gid: gid)
        }
        var group = group()
        var result: UnsafeMutablePointer<group>?
        var buffer = [CChar](repeating: 0, count: 16 * 1024)
        let rc = getgrnam_r(nameOrID, &group, &buffer, buffer.count, &result)
        guard rc == 0, result != nil else {
            throw DaemonError(
                .unknownGroup,
                "\(key): group '\(nameOrID)' does not exist; create it (groupadd --system \(nameOrID)) or name "
                    + "another group")
        }
        return UnixGroup(name: nameOrID, gid: group.gr_gid)
    }

    /// The name of group `gid`, if it has one.
    package static func name(of gid: UInt32) -> String? {
        var group = group()
        var result: UnsafeMutablePointer<group>?
        var buffer = [CChar](repeating: 0, count: 16 * 1024)
        guard getgrgid_r(gid, &group, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
        return String(cString: group.gr_name)
    }

    /// Every group a connected process belongs to: its primary `gid` (from `SO_PEERCRED`), the supplementary
    /// groups the kernel lists for `pid` (`Groups:` in `/proc/PID/status`), and the groups the group database
    /// gives the user `uid` (`getgrouplist`), so a user added to a group counts before logging in again.
    static func groups(ofProcess pid: Int, uid: Int, gid: Int) -> Set<UInt32> {
        var groups: Set<UInt32> = [UInt32(truncatingIfNeeded: gid)]
        if pid > 0, let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) {
            for line in status.split(separator: "\n") where line.hasPrefix("Groups:") {
                for field in line.dropFirst("Groups:".count).split(whereSeparator: { $0 == " " || $0 == "\t" }) {
                    if let g = UInt32(field) { groups.insert(g) }
                }
            }
        }
        if let user = userName(of: uid) {
            var count: Int32 = 64
            var list = [gid_t](repeating: 0, count: Int(count))
            if getgrouplist(user, gid_t(truncatingIfNeeded: gid), &list, &count) < 0, count > 64 {
                list = [gid_t](repeating: 0, count: Int(count))
                _ = getgrouplist(user, gid_t(truncatingIfNeeded: gid), &list, &count)
            }
            for g in list.prefix(Int(max(0, count))) { groups.insert(g) }
        }
        return groups
    }

    private static func userName(of uid: Int) -> String? {
        var passwd = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 16 * 1024)
        guard getpwuid_r(uid_t(truncatingIfNeeded: uid), &passwd, &buffer, buffer.count, &result) == 0,
            result != nil
        else { return nil }
        return String(cString: passwd.pw_name)
    }
}
