#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The path operations the programs took from `NSString` (not in FoundationEssentials, which is all they link), with
/// its results: `folder(of: "/a/b")` is `/a`, of `"b"` is `""`, of `"/a"` is `/`; `name(of: "/a/b/")` is `b`.
public enum PathText {
    /// The path without its last component (`NSString.deletingLastPathComponent`).
    public static func folder(of path: String) -> String {
        let trimmed = trailingSlashesRemoved(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        let head = trailingSlashesRemoved(String(trimmed[..<slash]))
        return head.isEmpty ? "/" : head
    }

    /// The last component (`NSString.lastPathComponent`): `/` for `/`, `""` for `""`.
    public static func name(of path: String) -> String {
        let trimmed = trailingSlashesRemoved(path)
        if trimmed == "/" { return "/" }
        guard let slash = trimmed.lastIndex(of: "/") else { return trimmed }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// `component` under `folder` (`NSString.appendingPathComponent`).
    public static func join(_ folder: String, _ component: String) -> String {
        if folder.isEmpty { return component }
        if component.isEmpty { return folder }
        return folder.hasSuffix("/") ? folder + component : folder + "/" + component
    }

    /// The last component's extension without the dot (`NSString.pathExtension`): `png` of `a/b.png`, `""` of
    /// `a/.hidden` or `a/b`.
    public static func fileExtension(of path: String) -> String {
        let last = name(of: path)
        guard let dot = last.lastIndex(of: "."), dot != last.startIndex else { return "" }
        return String(last[last.index(after: dot)...])
    }

    /// The path with every symbolic link resolved (`realpath`); the path as given when it cannot be resolved.
    public static func resolvingLinks(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func trailingSlashesRemoved(_ path: String) -> String {
        var path = path
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        return path
    }
}

/// Standard output and standard error written straight to their descriptors, as Foundation's
/// `FileHandle.standardOutput.write` and `.standardError.write` did (not in FoundationEssentials).
public struct StandardStream: Sendable {
    /// The descriptor written to.
    public let descriptor: Int32

    public static let output = StandardStream(descriptor: STDOUT_FILENO)
    public static let error = StandardStream(descriptor: STDERR_FILENO)

    /// Writes every byte, retrying after a signal; a failed write (a closed pipe) is dropped, as FileHandle's was
    /// not reported either.
    public func write<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        var buffer = Array(bytes)
        buffer.withUnsafeMutableBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }

    /// Writes `text` as UTF-8.
    public func write(_ text: String) { write(Array(text.utf8)) }
}
