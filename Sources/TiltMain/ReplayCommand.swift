import ArgumentParser
import FoundationEssentials
import Glibc
import TiltCore
import TiltTools
import TiltWire

/// `tilt replay`: plays a sensor log through the daemon's pipeline in this process, at the recorded pace, and shows
/// the frames as `tilt watch` does. No daemon or socket is involved.
struct Replay: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play a sensor log through the fusion pipeline at its recorded pace and show the frames.",
        discussion: """
            The same filter and tilt shaping as tiltd, without a daemon: useful to look at a recording, or to \
            compare it with what `tilt watch` showed live. Rows that fail to parse are skipped with a message \
            naming the file, line and column (the first ten, then every thousandth) and counted; --strict stops at \
            the first (docs/log-format.md). Use `tilt fuse` to process a log as fast as possible into a CSV.

            Example:  tilt replay Tests/Fixtures/broad-01-excerpt.csv.gz --speed 4 --rate 5
            """)

    @Argument(help: ArgumentHelp("The sensor log (.csv or .csv.gz).", valueName: "LOG"))
    var log: String

    @Option(name: .long, parsing: .unconditional, help: "Replay speed: 1 is real time.")
    var speed: Double = 1

    @Option(name: .long, parsing: .unconditional, help: "Frames per second to show (of log time).")
    var rate: Double = 10

    @Flag(name: .long, help: "Print the frames as JSON lines, as the daemon sends them.")
    var json = false

    @Flag(name: .customLong("no-mag"), help: "Ignore the magnetometer (6D fusion).")
    var noMag = false

    @Option(name: .long, parsing: .unconditional, help: "Tilt soft-clamp limit, radians.")
    var limit: Double = 0.5

    @OptionGroup var badRows: StrictOption

    func validate() throws {
        guard speed > 0, speed.isFinite else {
            throw ValidationError("--speed must be a positive number, e.g. 1 or 20")
        }
        guard rate > 0, rate.isFinite else {
            throw ValidationError("--rate must be a positive number of frames per second")
        }
        guard limit > 0, limit.isFinite else { throw ValidationError("--limit must be a positive angle in radians") }
    }

    func run() async throws {
        // A log that cannot be read is an I/O failure, not a usage mistake: its error names the file.
        let replay = PipelineReplay(
            log: log, speed: speed, rate: rate, useMagnetometer: !noMag, limit: limit, badRows: badRows.policy)
        let json = json
        let summary = try await replay.run { frame in
            // A reader that went away (`tilt replay | head`) ends the command inside StandardOutput.
            do { try StandardOutput.line(json ? ServerMessage.encode(frame: frame) : Watch.humanLine(frame)) } catch {
                StandardStream.error.write("error: \(error)\n")
                Glibc.exit(1)
            }
        } report: { line in
            StandardStream.error.write(line + "\n")
        }
        StandardStream.error.write(summary.text + "\n")
    }
}
