import ArgumentParser
import TiltCommandLine
import TiltWire

struct Tilt: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tilt",
        abstract: "The tilt companion: watch the daemon, tare it, and work with sensor logs.",
        discussion:
            "Commands that talk to tiltd take --socket (default $TILTD_SOCKET, else $XDG_RUNTIME_DIR/tiltd.sock, else "
            + "the system service's /run/tiltd/tiltd.sock).",
        version: WireProtocol.daemonVersion,
        subcommands: [
            Watch.self, Status.self, Tare.self, Sensors.self, Record.self, Replay.self, Fuse.self, Calibrate.self,
            Bench.self,
        ])

    /// Every error line starts `error: ` (lowercase, as compilers and git write it), ArgumentParser's own too: the
    /// lines tilt prints itself use the same prefix. README.md, "Conventions".
    static var _errorPrefix: String { "error: " }

    /// Parses the command line (its mistakes in the house style) and runs the command.
    static func main() async { await parseAndRun() }
}

/// The `--socket` option shared by commands that talk to the daemon.
struct SocketOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The daemon's Unix socket.", valueName: "PATH"))
    var socket: String?
}

/// Runs `tilt` with the process's arguments: the `tilt` executable's whole `main`, and the packaged program's when it
/// is started by that name (Sources/tilt-multicall).
package func runTilt() async { await Tilt.main() }
