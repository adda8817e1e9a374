import TiltClient
import TiltCore
import TiltWire

extension Recording {
    /// What `tilt record` is asked for, as its flags say.
    package struct Request: Sendable {
        /// Where samples come from.
        package enum From: String, Sendable, CaseIterable {
            /// tiltd if it answers on the socket, else IIO.
            case auto
            case daemon
            case iio
        }

        /// The log to write (`.csv` or `.csv.gz`).
        package var output: String
        /// Wall-clock seconds to record; `nil`: until a stop signal, the source's end or a failure.
        package var duration: Double?
        package var from: From = .auto
        /// The daemon's socket as given (`nil`: `$TILTD_SOCKET`, else the default).
        package var socket: String?
        /// The IIO sampling rate to ask for, Hz.
        package var rate: Double?
        /// The libiio context for IIO.
        package var uri = "local:"
        /// Replace an existing output.
        package var force = false
        /// Succeed even when samples were lost (they are marked in the log either way).
        package var allowGaps = false

        package init(output: String) { self.output = output }
    }

    /// Records as `request` says, until SIGINT or SIGTERM, the duration, the source's end, a failure, or the
    /// reader of a piped output leaving; then finishes the log and says what was recorded.
    ///
    /// The policy, in one place: an existing output is refused (without `force`) and a missing or read-only folder
    /// fails before any sample is waited for; the log is written to a temporary file beside the output that
    /// replaces it when the recording ends; what was recorded before a failure is kept, a run that recorded
    /// nothing leaves an existing file alone; samples tiltd could not send fail the recording unless `allowGaps`.
    ///
    /// - Returns: Whether it succeeded (exit status 0); every problem has been told on `console`.
    /// - Throws: ``AtomicFileOutput``'s error when the output cannot be written at all.
    package static func run(_ request: Request, console: RecordingConsole) async throws -> Bool {
        let output = request.output
        let leftovers = AtomicFileOutput.leftovers(of: output)
        let file = try AtomicFileOutput(path: output, replacing: request.force)
        if !leftovers.isEmpty {
            console.line(
                "note: a killed recording left \(leftovers.joined(separator: ", ")) beside \(output), with the samples "
                    + "it had flushed; rename it to keep it (mv \(leftovers[0]) NAME.csv\(output.hasSuffix(".gz") ? ".gz" : "")) "
                    + "or remove it")
        }
        let useDaemon = await daemonAnswers(request)
        let log = file.temporaryPath
        let recording = Recording(
            source: useDaemon
                ? .daemon(socketPath: SocketPath.resolveForClient(request.socket))
                : .iio(uri: request.uri, rate: request.rate),
            log: log, output: output, say: console.say)
        // Ctrl-C and SIGTERM (a service manager, `timeout`) both end the recording normally: the log is finished.
        let stops = StopSignals()
        do { try recording.start() } catch {
            stops.cancel()
            file.discard()
            console.line("error: \(error)")
            return false
        }
        if log != output {
            console.line("writing \(log) until the recording ends; then it becomes \(output)")
        }
        let started = ContinuousClock.now
        var readerLeft = false
        while !stops.received && !recording.failed && recording.sourceEnded == nil && !readerLeft {
            if let duration = request.duration, ContinuousClock.now - started >= .seconds(duration) { break }
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
            StandardStream.error.write(lossReport(outcome, allowGaps: request.allowGaps))
        }
        if let failure {
            // The writer names the temporary file; the user knows the output's name.
            console.line("error: \(failure.replacing(log, with: output))")
            return false
        }
        if let runError {
            console.line("error: \(runError)")
            return false
        }
        return !lostAny || request.allowGaps
    }

    /// Whether to record through tiltd: asked for, or (`auto`) a daemon answers `status` within 2 s. A daemon that is
    /// there but unusable (no permission, no answer) is said so before the sensors are read directly.
    private static func daemonAnswers(_ request: Request) async -> Bool {
        switch request.from {
        case .daemon: return true
        case .iio: return false
        case .auto:
            do {
                _ = try await TiltConnection.request(.status, socketPath: request.socket, timeout: 2) {
                    if case .status = $0 { true } else { false }
                }
                return true
            } catch let error as TiltClientError where error.kind == .daemonNotRunning {
                return false
            } catch {
                StandardStream.error.write("not recording through tiltd: \(error); reading the sensors directly\n")
                return false
            }
        }
    }

    /// The line that says how many samples tiltd could not send: a warning with `allowGaps`, else an error.
    package static func lossReport(_ outcome: Outcome, allowGaps: Bool) -> String {
        let gaps = "\(outcome.gaps) gap\(outcome.gaps == 1 ? "" : "s") marked in the log"
        let reconnections =
            outcome.reconnections == 0
            ? "" : ", \(outcome.reconnections) of them reconnections to tiltd, whose loss is not known"
        return "\(allowGaps ? "warning" : "error"): lost \(outcome.lost) samples that tiltd could not send "
            + "(\(gaps)\(reconnections))"
            + (allowGaps ? "\n" : "; pass --allow-gaps to accept a log with gaps\n")
    }
}
