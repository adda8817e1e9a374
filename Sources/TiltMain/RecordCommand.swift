import ArgumentParser
import FoundationEssentials
import TiltClient
import TiltCore
import TiltSensors
import TiltTools
import TiltWire

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

    enum From: String, ExpressibleByArgument, CaseIterable {
        case auto, daemon, iio
    }

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
        // Refuse an existing output, and fail on a missing or read-only folder, before waiting for any sample. The
        // log is written to a temporary file that replaces the output only when the recording ends.
        let leftovers = AtomicFileOutput.leftovers(of: output)
        let file = try AtomicFileOutput(path: output, replacing: force)
        let console = RecordingConsole { StandardStream.error.write($0) }
        if !leftovers.isEmpty {
            console.line(
                "note: a killed recording left \(leftovers.joined(separator: ", ")) beside \(output), with the samples "
                    + "it had flushed; rename it to keep it (mv \(leftovers[0]) NAME.csv\(output.hasSuffix(".gz") ? ".gz" : "")) "
                    + "or remove it")
        }
        let useDaemon: Bool
        switch from {
        case .daemon: useDaemon = true
        case .iio: useDaemon = false
        case .auto:
            do {
                _ = try await TiltConnection.request(.status, socketPath: socketOptions.socket, timeout: 2) {
                    if case .status = $0 { true } else { false }
                }
                useDaemon = true
            } catch let error as TiltClientError where error.kind == .daemonNotRunning {
                useDaemon = false
            } catch {
                // A daemon is there but unusable (no permission, no answer): say so before reading IIO instead.
                StandardStream.error.write("not recording through tiltd: \(error); reading the sensors directly\n")
                useDaemon = false
            }
        }
        let path = SocketPath.resolveForClient(socketOptions.socket)
        let log = file.temporaryPath
        let recording = Recording(
            source: useDaemon ? .daemon(socketPath: path) : .iio(uri: uri, rate: rate), log: log, output: output,
            say: console.say)
        // Ctrl-C and SIGTERM (a service manager, `timeout`) both end the recording normally: the log is finished.
        let stops = StopSignals()
        do { try recording.start() } catch {
            stops.cancel()
            file.discard()
            console.line("error: \(error)")
            throw ExitCode(1)
        }
        if log != output {
            console.line("writing \(log) until the recording ends; then it becomes \(output)")
        }
        let started = ContinuousClock.now
        var readerLeft = false
        while !stops.received && !recording.failed && recording.sourceEnded == nil && !readerLeft {
            if let duration, ContinuousClock.now - started >= .seconds(duration) { break }
            try? await Task.sleep(for: .milliseconds(50))
            readerLeft = file.readerLeft
        }
        readerLeft = readerLeft || file.readerLeft
        let (outcome, runError) = await recording.finish()
        stops.cancel()
        // Recording into a pipe whose reader went away (`--output /dev/stdout | head`) ends as a write to it would
        // end a program that never ignored SIGPIPE; the failed writes into it are no error of the recording's.
        if readerLeft { StandardOutput.endBecauseReaderLeft() }
        var failure = outcome.failure
        // What was recorded before a failure (a full disk) is kept, as the flushes promise; a run that recorded
        // nothing leaves an existing file as it was.
        if outcome.opened && (failure == nil || outcome.rows > 0) {
            do { try file.commit() } catch { failure = failure ?? "\(error)" }
        } else {
            file.discard()
        }
        if outcome.opened {
            console.line("recorded \(outcome.rows) samples to \(output) (\(outcome.rejected) rejected)")
        }
        if let ended = outcome.sourceEnded, failure == nil {
            StandardStream.error.write("stopped: \(ended)\n")
        }
        let lostAny = outcome.lost > 0 || outcome.gaps > 0
        if lostAny {
            let gaps = "\(outcome.gaps) gap\(outcome.gaps == 1 ? "" : "s") marked in the log"
            let reconnections =
                outcome.reconnections == 0
                ? "" : ", \(outcome.reconnections) of them reconnections to tiltd, whose loss is not known"
            StandardStream.error.write(
                "\(allowGaps ? "warning" : "error"): lost \(outcome.lost) samples that tiltd could not send "
                    + "(\(gaps)\(reconnections))"
                    + (allowGaps ? "\n" : "; pass --allow-gaps to accept a log with gaps\n"))
        }
        if let failure {
            // The writer names the temporary file; the user knows the output's name.
            console.line("error: \(failure.replacing(log, with: output))")
            throw ExitCode(1)
        }
        if let runError {
            console.line("error: \(runError)")
            throw ExitCode(1)
        }
        if lostAny && !allowGaps { throw ExitCode(1) }
    }
}
