import Foundation
import TiltImage

#if canImport(Glibc)
    import Glibc
#endif

/// A headless sway (wlroots' headless backend, pixman renderer) for the tests of the Wayland wallpaper: a real
/// compositor with virtual outputs, layer-shell, foreign-toplevel management and presentation time.
///
/// sway refuses to run as root, so it runs as `nobody` (`setpriv`) in a fresh runtime folder anyone may use; this
/// process, as root, can still connect to its socket. It is stopped and its folder removed when the object goes
/// away.
public final class SwaySession {
    /// Whether a session can be started here: sway, swaymsg, grim and setpriv are installed and this process is
    /// root (to start sway as another user).
    public static let isAvailable: Bool = {
        let tools = ["/usr/bin/sway", "/usr/bin/swaymsg", "/usr/bin/grim", "/usr/bin/setpriv"]
        return getuid() == 0 && tools.allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// The installed sway's version (`sway --version`), e.g. `[1, 7]`; empty when there is none.
    public static let version: [Int] = {
        guard let run = try? ChildProcess.run("/usr/bin/sway", ["--version"], timeout: 30), run.status == 0,
            let word = run.stdout.split(separator: " ").last
        else { return [] }
        return word.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".").compactMap { Int($0) }
    }()

    /// The session's `XDG_RUNTIME_DIR`.
    public let runtimeDirectory: String
    /// The compositor's socket, an absolute path (for `WAYLAND_DISPLAY` or `WaylandDesktop(displayName:)`).
    public private(set) var displayPath = ""
    private let sway: BackgroundProcess
    private var ipcSocket: String?

    /// An output of the session, as `swaymsg -t get_outputs` says.
    public struct Output: Sendable, Hashable {
        public var name: String
        public var active: Bool
        public var width: Int
        public var height: Int
    }

    /// Starts sway with its first output at `resolution` and waits (up to `timeout` seconds) until it takes clients
    /// and commands. `config` is added to its configuration (e.g. `output HEADLESS-2 resolution 480x270`).
    ///
    /// With a `host` (another compositor's socket), this sway runs nested in it (wlroots' Wayland backend): its
    /// outputs (`WL-1`, `WL-2`, …) are windows of the host, and closing one there unplugs the output here (its
    /// `wl_output` global goes), which the headless backend of sway 1.7 cannot do (`output NAME disable` fails to
    /// commit there). Its frames are presented when the host's are (a headless weston reports presentation times,
    /// sway 1.7's headless backend does not).
    public init(resolution: String = "640x360", config: String = "", host: String? = nil, timeout: Double = 60)
        throws
    {
        let folder = TestPaths.temporaryDirectory("sway").path
        chmod(folder, 0o777)
        runtimeDirectory = folder
        let configPath = folder + "/sway.cfg"
        let first = host == nil ? "HEADLESS-1" : "WL-1"
        try "output \(first) resolution \(resolution)\n\(config)\n".write(
            toFile: configPath, atomically: true, encoding: .utf8)
        chmod(configPath, 0o644)
        let backend =
            host.map { ["WLR_BACKENDS=wayland", "WAYLAND_DISPLAY=\($0)"] } ?? [
                "WLR_BACKENDS=headless"
            ]
        sway = try BackgroundProcess(
            "/usr/bin/setpriv",
            [
                "--reuid=65534", "--regid=65534", "--clear-groups", "env", "-i", "PATH=/usr/bin:/bin",
                "XDG_RUNTIME_DIR=\(folder)", "WLR_RENDERER=pixman", "WLR_LIBINPUT_NO_DEVICES=1",
            ] + backend + ["sway", "-c", configPath])
        var display: String?
        let started = eventually(timeout: timeout) { [sway] in
            guard sway.process.isRunning else { return false }
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            guard let ipc = entries.first(where: { $0.hasPrefix("sway-ipc.") && $0.hasSuffix(".sock") }),
                let socket = entries.first(where: { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") })
            else { return false }
            self.ipcSocket = folder + "/" + ipc
            display = folder + "/" + socket
            return true
        }
        guard started, let display else {
            throw TestError("sway did not start within \(timeout) s; it printed: \(sway.stderr.suffix(2000))")
        }
        displayPath = display
        guard try eventually(timeout: timeout, { try !outputs().filter(\.active).isEmpty }) else {
            throw TestError("sway has no active output after \(timeout) s")
        }
    }

    deinit {
        // `swaymsg exit`, not SIGTERM: sway takes signals through a signalfd, which never sees a signal that the
        // test process ignores (the ignoring is inherited).
        if sway.process.isRunning { _ = try? swaymsg(["exit"]) }
        if !eventually(timeout: 10, { !sway.process.isRunning }) { sway.kill() }
        try? FileManager.default.removeItem(atPath: runtimeDirectory)
    }

    /// Ends sway now (SIGKILL), as a crash would; returns whether it is gone within `timeout` seconds.
    @discardableResult
    public func crash(timeout: Double = 10) -> Bool {
        sway.kill(SIGKILL, timeout: timeout)
    }

    /// Runs `swaymsg ARGUMENTS…` as the session's user and returns what it printed.
    /// - Throws: ``TestError`` when it fails.
    @discardableResult
    public func swaymsg(_ arguments: [String]) throws -> String {
        guard let ipcSocket else { throw TestError("sway has no IPC socket") }
        let run = try ChildProcess.run(
            "/usr/bin/setpriv",
            [
                "--reuid=65534", "--regid=65534", "--clear-groups", "env", "-i", "PATH=/usr/bin:/bin",
                "SWAYSOCK=\(ipcSocket)", "swaymsg",
            ] + arguments, timeout: 60)
        guard run.status == 0 else {
            throw TestError("swaymsg \(arguments.joined(separator: " ")) failed: \(run.stdout) \(run.stderr)")
        }
        return run.stdout
    }

    /// The session's outputs (enabled or not).
    public func outputs() throws -> [Output] {
        let json = try swaymsg(["-t", "get_outputs", "-r"])
        guard let list = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]] else {
            throw TestError("swaymsg -t get_outputs printed no list: \(json)")
        }
        return list.map { o in
            let rect = o["rect"] as? [String: Any] ?? [:]
            return Output(
                name: o["name"] as? String ?? "", active: o["active"] as? Bool ?? false,
                width: rect["width"] as? Int ?? 0, height: rect["height"] as? Int ?? 0)
        }
    }

    /// Adds a headless output (`swaymsg create_output`) and returns its name once sway lists it.
    public func createOutput(timeout: Double = 60) throws -> String {
        let before = Set(try outputs().map(\.name))
        try swaymsg(["create_output"])
        var name: String?
        _ = try eventually(timeout: timeout) {
            name = try outputs().first { !before.contains($0.name) && $0.active }?.name
            return name != nil
        }
        guard let name else { throw TestError("swaymsg create_output made no new active output in \(timeout) s") }
        return name
    }

    /// What `output` shows now, captured with `grim -o` (wlr-screencopy): RGBA rows, top first.
    public func screenshot(output: String) throws -> (rgba: [UInt8], width: Int, height: Int) {
        let path = runtimeDirectory + "/shot-\(output)-\(UInt32.random(in: 0...UInt32.max)).png"
        let run = try ChildProcess.run(
            "/usr/bin/setpriv",
            [
                "--reuid=65534", "--regid=65534", "--clear-groups", "env", "-i", "PATH=/usr/bin:/bin",
                "XDG_RUNTIME_DIR=\(runtimeDirectory)", "WAYLAND_DISPLAY=\(displayPath)", "grim", "-o", output, path,
            ], timeout: 60)
        guard run.status == 0 else { throw TestError("grim -o \(output) failed: \(run.stderr)") }
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try PNGFile.read(path: path)
    }

    /// The environment a client started by this (root) process needs to connect to the session.
    public var clientEnvironment: [String: String] {
        ["XDG_RUNTIME_DIR": runtimeDirectory, "WAYLAND_DISPLAY": displayPath]
    }
}
