import FoundationEssentials
import Logging
import TiltCore
import TiltSensors
import TiltWire

/// `tiltd --check`: validates what the daemon would start with, without starting it.
///
/// It reads the config file, builds the configuration (flags over the file), opens the source and resolves the
/// calibration, and reports each as `ok`, `note` or `FAIL`. The daemon would start when nothing failed. Presets are
/// the renderer's business: `tiltfx check` validates them.
package struct DaemonCheck: Sendable {
    /// One finding.
    package struct Finding: Sendable, Equatable {
        package enum Verdict: String, Sendable {
            case ok
            case note
            case fail = "FAIL"
        }

        package var verdict: Verdict
        package var subject: String
        package var text: String
    }

    /// The config file to read, if any.
    package var configPath: String?
    /// Options from the command line, put over the file's.
    package var flags: DaemonOptions

    package init(configPath: String?, flags: DaemonOptions) {
        self.configPath = configPath
        self.flags = flags
    }

    /// Runs every check.
    package func run() -> [Finding] {
        var findings: [Finding] = []
        func add(_ verdict: Finding.Verdict, _ subject: String, _ text: String) {
            findings.append(Finding(verdict: verdict, subject: subject, text: text))
        }
        var options = DaemonOptions()
        if let configPath {
            do {
                let (file, lineProblems) = try ConfigFile.readAll(path: configPath)
                let (fileOptions, valueProblems) = DaemonOptions.reading(file)
                let problems = (lineProblems + valueProblems).sorted { Self.line(of: $0) < Self.line(of: $1) }
                // Every bad line and value at once, so one run shows all there is to fix.
                for problem in problems { add(.fail, "config", problem.description) }
                // The rest depends on the config: check only what does not.
                if !problems.isEmpty { return findings }
                options = fileOptions
                add(.ok, "config", "\(configPath): \(file.entries.count) keys")
            } catch {
                add(.fail, "config", error.description)
                return findings
            }
        } else {
            add(.note, "config", "no config file given (--config FILE); flags and defaults only")
        }
        let configuration: TiltDaemon.Configuration
        do {
            configuration = try options.overlaid(by: flags).makeConfiguration()
        } catch {
            add(.fail, "options", error.message)
            return findings
        }
        checkSocket(configuration, add)
        let policy = configuration.policy
        add(
            .ok, "limits",
            "max_clients \(policy.maxClients), max_line_length \(policy.maxLineLength) bytes, "
                + "commands_per_second \(policy.commandsPerSecond) (burst \(policy.commandBurst)), "
                + "raw_queue_seconds \(policy.rawQueueSeconds); "
                + "admin_group \(policy.adminGroup?.description ?? "none")")
        let files = FileLimit.current
        if files.hard < UInt64(policy.maxClients) + 64 {
            add(
                .note, "limits",
                "the open file hard limit (\(files.hard)) is below max_clients plus headroom; raise LimitNOFILE=")
        }
        checkSourceAndCalibration(configuration, add)
        return findings
    }

    /// The report for people, one finding a line, then the verdict.
    package static func report(_ findings: [Finding]) -> String {
        var lines = findings.map {
            "\($0.verdict.rawValue.padded(to: 5))"
                + "\($0.subject): \($0.text)"
        }
        let failures = findings.filter { $0.verdict == .fail }.count
        let plural = failures == 1 ? "" : "s"
        lines.append(failures == 0 ? "tiltd --check: OK" : "tiltd --check: \(failures) problem\(plural)")
        return lines.joined(separator: "\n")
    }

    /// The config-file line a problem is on (0 for the whole file), to report problems in file order.
    private static func line(of problem: ConfigError) -> Int {
        if case .file(_, let line) = problem.origin { return line ?? 0 }
        return 0
    }

    private func checkSocket(
        _ configuration: TiltDaemon.Configuration, _ add: (Finding.Verdict, String, String) -> Void
    ) {
        let path = SocketPath.resolve(configuration.socketPath)
        if path.utf8.count > SocketPath.maxLength {
            add(.fail, "socket", "\(path) is \(path.utf8.count) bytes, over the \(SocketPath.maxLength)-byte limit")
            return
        }
        // What `tiltd` would find there at start (SocketFile.prepare), looked at without removing anything.
        var stale = ""
        if let node = FileNode(lstat: path) {
            guard node.isSocket else {
                add(
                    .fail, "socket",
                    "\(path) exists and is not a socket; tiltd would refuse it: remove it or choose "
                        + "another socket")
                return
            }
            guard !SocketFile.isLive(path) else {
                add(
                    .fail, "socket",
                    "a daemon already answers at \(path), so tiltd would refuse to start; stop it "
                        + "first, or choose another socket")
                return
            }
            stale = "; a stale socket is there, which tiltd removes at start"
        }
        let folder = PathText.folder(of: path)
        var isDirectory = false
        if folder.isEmpty || FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory),
            folder.isEmpty || isDirectory
        {
            let group = configuration.policy.socketGroup.map { ", group \($0)" } ?? ""
            add(.ok, "socket", "\(path) (mode 0660\(group))\(stale)")
        } else {
            add(
                .note, "socket",
                "\(path): the folder \(folder) does not exist yet; create it (systemd's RuntimeDirectory= does)")
        }
    }

    private func checkSourceAndCalibration(
        _ configuration: TiltDaemon.Configuration, _ add: (Finding.Verdict, String, String) -> Void
    ) {
        let source: any MotionSource
        do { source = try configuration.source.open() } catch {
            add(.fail, "source", error.description)
            return
        }
        add(.ok, "source", source.summary)
        if let server = configuration.dsuServer {
            let reach =
                server.isLoopback ? "this machine only" : "reachable from the network: anyone can read the motion"
            add(.ok, "dsu_server", "DSU on UDP \(server) (\(reach); not bound by --check)")
        }
        if case .automatic(let directories) = configuration.calibration {
            let when =
                configuration.source.configuration.calibrationExemption.map {
                    " (for live sensors; this source searches none: \($0))"
                } ?? ""
            add(.ok, "calibration", "folders searched\(when): \(InstalledData.describe(directories))")
        }
        let resolution = TiltDaemon(configuration: configuration, logger: .init(label: "tiltd-check"))
            .resolveCalibration(for: source)
        if resolution.problems.isEmpty {
            add(.ok, "calibration", resolution.explanation)
        } else {
            for problem in resolution.problems {
                add(.fail, "calibration", "\(problem)")
            }
            add(.note, "calibration", resolution.explanation)
        }
    }
}
