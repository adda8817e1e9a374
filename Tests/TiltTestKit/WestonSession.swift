import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A headless weston for the tests of the Wayland wallpaper: a compositor without wlr-layer-shell (as GNOME's Mutter
/// is), whose headless backend reports presentation times, so a sway nested in it (``SwaySession``'s `host`) does
/// too.
///
/// weston runs as `nobody` (`setpriv`) in a fresh runtime folder of its own; it is stopped and the folder removed
/// when the object goes away.
public final class WestonSession {
    /// Whether a session can be started here: weston and setpriv are installed and this process is root.
    public static let isAvailable: Bool = {
        getuid() == 0
            && ["/usr/bin/weston", "/usr/bin/setpriv"].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// The session's `XDG_RUNTIME_DIR`.
    public let runtimeDirectory: String
    /// The compositor's socket, an absolute path.
    public let displayPath: String
    private let weston: BackgroundProcess

    /// Starts weston's headless backend with one output at `width`×`height` and waits (up to `timeout` seconds)
    /// for its socket.
    public init(width: Int = 640, height: Int = 360, timeout: Double = 60) throws {
        let folder = TestPaths.temporaryDirectory("weston").path
        chown(folder, 65534, 65534)
        chmod(folder, 0o700)
        runtimeDirectory = folder
        displayPath = folder + "/wayland-1"
        weston = try BackgroundProcess(
            "/usr/bin/setpriv",
            [
                "--reuid=65534", "--regid=65534", "--clear-groups", "env", "-i", "PATH=/usr/bin:/bin",
                "XDG_RUNTIME_DIR=\(folder)", "weston", "--backend=headless-backend.so", "--socket=wayland-1",
                "--width=\(width)", "--height=\(height)", "--idle-time=0",
            ])
        let started = eventually(timeout: timeout) { [weston, displayPath] in
            weston.process.isRunning && FileManager.default.fileExists(atPath: displayPath)
        }
        guard started else {
            throw TestError("weston did not start within \(timeout) s; it printed: \(weston.stderr.suffix(2000))")
        }
    }

    deinit {
        // SIGKILL: weston takes SIGTERM through a signalfd, which never sees it when the test process ignores it.
        weston.kill()
        try? FileManager.default.removeItem(atPath: runtimeDirectory)
    }
}
