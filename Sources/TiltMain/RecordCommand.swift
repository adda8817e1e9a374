import ArgumentParser
import TiltCore
import TiltTools

/// `tilt record`: records the live sensor stream into a sensor log, through tiltd or directly from IIO.
struct Record: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Record the live sensors into a sensor log (CSV, gzip when the name ends in .gz).",
        discussion: """
            With a running tiltd (--from auto finds one on the socket), records the raw samples the daemon fuses, \
            so replaying the log gives the same fused output as the live run; the daemon keeps serving its other \
            clients. Without one, reads the sensors directly through libiio. Rows are flushed every half second, \
            so a full disk loses at most that much; progress goes to standard error (a line redrawn on a \
            terminal, else a line a second), counting the samples and the sensor time they span. Ctrl-C or \
            SIGTERM ends the recording. The log is written as .partial-XXXXXX-NAME in the same folder and renamed \
            to FILE when the recording ends; an existing FILE is replaced only with --force. A recording that was \
            killed (SIGKILL, a crash) leaves its .partial-… file, which holds what was flushed: the next recording \
            to FILE names it. A pipe works as FILE (--output /dev/stdout): the recording ends when its reader \
            goes away.

            Through tiltd every sample the daemon sends is kept, and a replay that finishes ends the recording. \
            Samples tiltd could not send (this program fell more than its raw_queue_seconds behind) and \
            reconnections are marked as gaps in the log, which replay and fuse do not fuse across; the recording \
            then exits with status 1 unless --allow-gaps. The log tiltd replays is never the output, --force or not.
            """)

    typealias From = Recording.Request.From

    @Option(name: .long, help: ArgumentHelp("The log to write (.csv or .csv.gz).", valueName: "FILE"))
    var output: String

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp(
            "Stop after this many seconds of wall-clock time (default: until Ctrl-C); the progress shows sensor time, "
                + "which runs faster when tiltd replays a log with --speed.", valueName: "S"))
    var duration: Double?

    @Option(name: .long, help: "Where samples come from: auto (tiltd if it answers, else IIO), daemon or iio.")
    var from: From = .auto

    @OptionGroup var socketOptions: SocketOptions

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp("Sampling rate to ask for, in Hz (IIO only).", valueName: "HZ"))
    var rate: Double?

    @Option(name: .long, help: ArgumentHelp("The libiio context: local: or ip:HOST (IIO only).", valueName: "URI"))
    var uri = "local:"

    @Flag(name: .long, help: "Replace the output file when it exists.")
    var force = false

    @Flag(name: .long, help: "Exit 0 even when samples were lost (the gaps are marked in the log either way).")
    var allowGaps = false

    func validate() throws {
        if let duration, !(duration > 0) { throw ValidationError("--duration must be a positive number of seconds") }
        if let rate, !(rate > 0 && rate.isFinite) { throw ValidationError("--rate must be a positive number of Hz") }
    }

    func run() async throws {
        var request = Recording.Request(output: output)
        request.duration = duration
        request.from = from
        request.socket = socketOptions.socket
        request.rate = rate
        request.uri = uri
        request.force = force
        request.allowGaps = allowGaps
        let console = RecordingConsole { StandardStream.error.write($0) }
        guard try await Recording.run(request, console: console) else { throw ExitCode(1) }
    }
}

extension Recording.Request.From: ExpressibleByArgument {}
