import Foundation
import TiltTestKit

#if canImport(Glibc)
    import Glibc
#endif

/// The service tests start tiltd (or a launcher that execs it) with their own arguments and environment.
typealias ServiceProcess = DaemonProcess

/// Fixtures shared by the service tests.
enum ServiceFixtures {
    /// A fresh folder others may traverse (0711), so a client running as another uid reaches a socket in it.
    static func directory(_ prefix: String) -> URL {
        let dir = TestPaths.temporaryDirectory(prefix)
        chmod(dir.path, 0o711)
        return dir
    }

    /// Writes `text` to `name` in `dir`; returns the path.
    static func write(_ text: String, to name: String, in dir: URL) throws -> String {
        let path = dir.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A python3 client: connects to argv[1], skips the hello, sends argv[2], prints the first reply that is a
    /// `tare`, `status` or `error` object (or `EOF`).
    static let pythonClient = """
        import json, socket, sys
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(10)
        s.connect(sys.argv[1])
        f = s.makefile("rwb")
        f.readline()
        f.write((sys.argv[2] + "\\n").encode())
        f.flush()
        while True:
            line = f.readline()
            if not line:
                print("EOF")
                break
            if json.loads(line).get("class") in ("tare", "status", "error"):
                print(line.decode().strip())
                break
        """

    /// A python3 launcher: `launch.py [--activate SOCKET] [--journal] -- PROGRAM ARGS…`. With `--activate` it binds
    /// and listens on SOCKET, moves it to fd 3 and sets `LISTEN_FDS=1`, `LISTEN_PID` to its own pid (kept across
    /// exec); with `--journal` it sets `JOURNAL_STREAM` to its standard error's device and inode. Then it execs.
    static let pythonLauncher = """
        import os, socket, sys
        args = sys.argv[1:]
        split = args.index("--")
        options, program = args[:split], args[split + 1:]
        if "--activate" in options:
            path = options[options.index("--activate") + 1]
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.bind(path)
            s.listen(64)
            os.dup2(s.fileno(), 3)
            os.set_inheritable(3, True)
            os.environ["LISTEN_FDS"] = "1"
            os.environ["LISTEN_PID"] = str(os.getpid())
        if "--journal" in options:
            st = os.fstat(2)
            os.environ["JOURNAL_STREAM"] = "%d:%d" % (st.st_dev, st.st_ino)
        os.execv(program[0], program)
        """
}
