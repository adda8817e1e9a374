import Foundation

/// The set-up most end-to-end tests share: a daemon replaying a log on a socket in a temporary folder, and clients
/// that connect to it and read its hello.
extension DaemonProcess {
    /// The socket path the replay helpers use inside `directory` (short, to stay under `sun_path`'s 108 bytes).
    public static func temporarySocket(in directory: URL, name: String = "d.sock") -> String {
        directory.appendingPathComponent(name).path
    }

    /// Starts `tiltd --replay log extra… --socket directory/name`.
    ///
    /// - Parameters:
    ///   - extra: further arguments (`--loop`, `--speed 4`, limits…).
    ///   - log: the sensor log to replay; the bundled BROAD excerpt unless a test writes its own.
    ///   - directory: the test's temporary folder; the test removes it.
    ///   - name: the socket's file name in `directory`.
    public static func replaying(
        _ extra: [String] = [], log: String = TestPaths.broadExcerpt, in directory: URL, socket name: String = "d.sock"
    ) throws -> DaemonProcess {
        try DaemonProcess(socketPath: temporarySocket(in: directory, name: name), arguments: ["--replay", log] + extra)
    }

    /// Connects a client to the daemon's socket, retrying while the daemon starts.
    ///
    /// - Throws: ``TestError`` when the daemon was started without a known socket, or does not accept in `timeout` s.
    public func connect(timeout: Double = 10) throws -> LineSocket {
        guard let socketPath else {
            throw TestError("this daemon was started without a socket path; connect with LineSocket(path:) instead")
        }
        return try LineSocket(path: socketPath, timeout: timeout)
    }

    /// Connects a client and reads the daemon's `hello`.
    ///
    /// - Returns: the client, ready for commands, and the hello object.
    /// - Throws: ``TestError`` naming the daemon's output when no hello arrives within `timeout` seconds.
    public func greetedClient(timeout: Double = 5) throws -> (client: LineSocket, hello: [String: Any]) {
        let client = try connect()
        guard let hello = client.read(class: "hello", timeout: timeout) else {
            throw TestError("no hello from tiltd within \(timeout) s; its output:\n\(log)")
        }
        return (client, hello)
    }
}
