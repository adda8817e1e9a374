import Foundation
import TiltImage

#if canImport(Glibc)
    import Glibc
#endif

/// A real GNOME Shell, headless (Wayland, one virtual monitor, llvmpipe), with the tilt-wallpaper extension built from
/// `gnome/` and the test-only helper extension (`Tests/Fixtures/gnome/tilt-test-helper@tilt`) enabled, started through
/// `scripts/gnome-headless` (private buses, mocked logind and systemd, keyfile GSettings, a HOME of its own).
///
/// The helper exports `org.tilt.TestHelper` on the Shell's bus connection: ``eval(_:)`` runs JavaScript in the Shell,
/// ``screenshot()`` takes the stage. The Shell's output, tiltfx's with it, is ``log``. Everything stops when the
/// object goes away.
public final class GnomeShellSession {
    /// Whether GNOME Shell, gjs, gdbus, dbus-run-session and python-dbusmock are installed (scripts/bootstrap).
    public static let isAvailable: Bool = {
        let tools = ["/usr/bin/gnome-shell", "/usr/bin/gjs", "/usr/bin/gdbus", "/usr/bin/dbus-run-session"]
        return tools.allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
            && FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/dbusmock")
    }()

    /// The session's folder: `home/` (HOME), `run/` (XDG_RUNTIME_DIR), `shell.log`.
    public let folder: String
    /// The virtual monitor's connector, as tiltfx names its output.
    public let connector = "Meta-0"
    private let process: BackgroundProcess
    private var bus = ""

    /// Starts the Shell with `arguments` for `tiltfx wallpaper --gnome` (TILT_WALLPAPER_ARGS), and waits (up to
    /// `timeout` seconds) until the helper answers and the startup overview has gone.
    /// - Parameters:
    ///   - config: written to `~/.config/tilt/wallpaper.conf` before the Shell starts, when given.
    ///   - keyfile: GSettings (the keyfile backend's format: `[org/gnome/…]` groups of `key=GVariant text`) in place
    ///     before the Shell starts, when given.
    public init(arguments: [String] = [], config: String? = nil, keyfile: String? = nil, timeout: Double = 180) throws {
        folder = TestPaths.temporaryDirectory("gnome").path
        if let keyfile {
            try FileManager.default.createDirectory(
                atPath: folder + "/home/.config/glib-2.0/settings", withIntermediateDirectories: true)
            try keyfile.write(
                toFile: folder + "/home/.config/glib-2.0/settings/keyfile", atomically: true, encoding: .utf8)
        }
        if let config {
            try FileManager.default.createDirectory(
                atPath: folder + "/home/.config/tilt", withIntermediateDirectories: true)
            try config.write(toFile: folder + "/home/.config/tilt/wallpaper.conf", atomically: true, encoding: .utf8)
        }
        let root = TestPaths.repositoryRoot
        let ready = folder + "/ready"
        process = try BackgroundProcess(
            root.appendingPathComponent("scripts/gnome-headless").path,
            [
                "--keep", folder, "--tiltfx", TestPaths.executable("tiltfx"), "--args",
                arguments.joined(separator: " "), "--extension",
                root.appendingPathComponent("Tests/Fixtures/gnome/tilt-test-helper@tilt").path, "--",
                "bash", "-c",
                "echo $$ > \(ready).pid && echo \"$DBUS_SESSION_BUS_ADDRESS\" > \(ready).tmp && mv \(ready).tmp \(ready) "
                    + "&& exec sleep 100000",
            ], unblockingSignals: true)
        let started = eventually(timeout: timeout) { [process] in
            process.process.isRunning && FileManager.default.fileExists(atPath: ready)
        }
        guard started, let address = try? String(contentsOfFile: ready, encoding: .utf8) else {
            throw TestError("GNOME Shell did not start in \(Int(timeout)) s: \(process.stderr.suffix(3000))")
        }
        bus = address.trimmingCharacters(in: .whitespacesAndNewlines)
        // The helper hides the overview the Shell starts in once start-up completes; on a busy machine that hide can
        // land while the overview is still animating in, and be lost: each poll asks again.
        let answering = eventually(timeout: timeout) {
            let poll =
                "if (!Main.layoutManager._startingUp && Main.overview.visible) Main.overview.hide(); "
                + "return !Main.layoutManager._startingUp && !Main.overview.visible"
            return (try? self.eval(poll)) == "true"
        }
        guard answering else {
            throw TestError("GNOME Shell's test helper did not answer in \(Int(timeout)) s:\n\(log.suffix(3000))")
        }
    }

    deinit {
        // The command's end (its sleep, which the script waits for) makes the script stop the Shell (tiltfx reads the
        // end of its input), the buses and the mocks, and exit. Whatever is left after a minute is killed, the system
        // bus (which daemonises itself, out of the script's reach) included, and nothing is waited for without end.
        let below = Self.descendants(of: process.pid)
        if let pid = Self.pid(in: folder + "/ready.pid") { kill(pid, SIGTERM) }
        if !eventually(timeout: 60, { !process.process.isRunning }) {
            for pid in below + [process.pid] { kill(pid, SIGKILL) }
            _ = eventually(timeout: 10) { !process.process.isRunning }
        }
        if let bus = Self.pid(in: folder + "/system.pid") { kill(bus, SIGKILL) }
    }

    private static func pid(in file: String) -> Int32? {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return nil }
        return Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// What the Shell printed so far (tiltfx's standard output and error are the Shell's).
    public var log: String { (try? String(contentsOfFile: folder + "/shell.log", encoding: .utf8)) ?? "" }

    /// Runs `body` (a JavaScript function body; `Main`, `global` and `imports` in scope) in the Shell and returns the
    /// JSON of its value.
    /// - Throws: ``TestError`` with the JavaScript error, or when the call fails.
    @discardableResult
    public func eval(_ body: String) throws -> String {
        let reply = try call("Eval", body)
        // gdbus prints ('{"value":…}',) — a GVariant tuple of one string.
        guard let start = reply.firstIndex(of: "'"), let end = reply.lastIndex(of: "'"), start < end else {
            throw TestError("unexpected reply from Eval: \(reply)")
        }
        let json = String(reply[reply.index(after: start)..<end]).replacingOccurrences(of: "\\'", with: "'")
            .replacingOccurrences(of: "\\\\", with: "\\")
        guard let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else {
            throw TestError("Eval gave no JSON object: \(json)")
        }
        if let error = object["error"] { throw TestError("JavaScript failed in the Shell: \(error)") }
        let value = object["value"] ?? NSNull()
        let data = try JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    /// The whole stage now, as the Shell draws it.
    package func screenshot() throws -> DecodedImage {
        let path = folder + "/shot-\(UUID().uuidString).png"
        let reply = try call("Screenshot", path)
        guard reply.contains("true") else { throw TestError("the Shell's screenshot failed: \(reply)") }
        return try ImageDecoder.load(path: path)
    }

    /// The process ids of the tiltfx programs the Shell runs now.
    public func tiltfxProcesses() throws -> [Int32] {
        let shell = try eval("return new imports.gi.Gio.Credentials().get_unix_pid()")
        guard let pid = Int32(shell) else { return [] }
        return Self.children(of: pid, named: "tiltfx")
    }

    /// Enables or disables the tilt-wallpaper extension.
    public func setExtension(enabled: Bool) throws {
        let verb = enabled ? "enableExtension" : "disableExtension"
        try eval("return Main.extensionManager.\(verb)('tilt-wallpaper@tilt')")
    }

    /// `program arguments…` as a client of the session (WAYLAND_DISPLAY, its runtime folder and bus), in the
    /// background.
    public func client(_ program: String, _ arguments: [String]) throws -> BackgroundProcess {
        try BackgroundProcess(
            program, arguments,
            environment: [
                "WAYLAND_DISPLAY": "wayland-0", "XDG_RUNTIME_DIR": folder + "/run", "DISPLAY": "",
                "DBUS_SESSION_BUS_ADDRESS": bus, "HOME": folder + "/home", "GSETTINGS_BACKEND": "keyfile",
                "XDG_CONFIG_HOME": folder + "/home/.config", "LIBGL_ALWAYS_SOFTWARE": "1", "GDK_BACKEND": "wayland",
            ])
    }

    /// The environment a program needs to see the session's settings and bus.
    public var environment: [String: String] {
        [
            "DBUS_SESSION_BUS_ADDRESS": bus, "HOME": folder + "/home", "GSETTINGS_BACKEND": "keyfile",
            "XDG_CONFIG_HOME": folder + "/home/.config", "XDG_RUNTIME_DIR": folder + "/run",
        ]
    }

    private func call(_ method: String, _ argument: String) throws -> String {
        let run = try ChildProcess.run(
            "/usr/bin/env",
            [
                "DBUS_SESSION_BUS_ADDRESS=\(bus)", "gdbus", "call", "--timeout", "60", "--session", "--dest",
                "org.gnome.Shell", "--object-path", "/org/tilt/TestHelper", "--method", "org.tilt.TestHelper.\(method)",
                argument,
            ], timeout: 90)
        guard run.status == 0 else { throw TestError("gdbus \(method) failed: \(run.stderr)") }
        return run.stdout
    }

    /// The processes whose parent is `parent` and whose name (`/proc/PID/comm`) is `name`, found anywhere below it.
    static func children(of parent: Int32, named name: String) -> [Int32] {
        descendants(of: parent).filter {
            (try? String(contentsOfFile: "/proc/\($0)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) == name
        }
    }

    /// Every process below `parent` now (children, their children, …), from `/proc`.
    static func descendants(of parent: Int32) -> [Int32] {
        var parents: [Int32: Int32] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(entry),
                let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { continue }
            let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
            guard fields.count > 1, let ppid = Int32(fields[1]) else { continue }
            parents[pid] = ppid
        }
        func below(_ pid: Int32) -> Bool {
            var current = parents[pid]
            var steps = 0
            while let p = current, steps < 64 {
                if p == parent { return true }
                current = parents[p]
                steps += 1
            }
            return false
        }
        return parents.keys.filter(below).sorted()
    }
}
