import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What `lstat` says of a path, without following a symbolic link: whether it is a socket, and its identity
/// (device and inode), to tell a file from another put in its place.
public struct FileNode: Sendable, Equatable {
    /// It is a Unix socket.
    public let isSocket: Bool
    /// The device that holds it.
    public let device: UInt64
    /// Its inode number on that device.
    public let inode: UInt64

    /// Reads `path`'s status; `nil` when nothing is there (or it cannot be looked at: `errno` says why).
    public init?(lstat path: String) {
        var st = stat()
        guard lstat(path, &st) == 0 else { return nil }
        self.init(st)
    }

    /// Reads the status of the open file `descriptor`; `nil` when it is not open.
    public init?(fstat descriptor: Int32) {
        var st = stat()
        guard fstat(descriptor, &st) == 0 else { return nil }
        self.init(st)
    }

    private init(_ st: stat) {
        isSocket = (st.st_mode & S_IFMT) == S_IFSOCK
        device = UInt64(st.st_dev)
        inode = UInt64(st.st_ino)
    }
}
