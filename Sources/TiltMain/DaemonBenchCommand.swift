import ArgumentParser
import TiltTools
import TiltWire

/// `tilt bench daemon`: starts a tiltd replaying a log, serves it N watchers from this one process, and reports
/// delivery, latency, CPU and memory.
struct DaemonBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daemon",
        abstract: "Load-test tiltd: N watching clients over its Unix socket; frames, drops, latency, CPU, memory.",
        discussion: """
            Raises its open-file limit to the hard limit (tiltd inherits it), starts tiltd replaying the log in a \
            loop on a temporary socket, connects N clients from this one process (non-blocking sockets, one poll \
            loop), has each watch at --rate, and measures for --seconds: frames per client (expected: the lower of --rate \
            and the log's rate, times the window), frames the daemon dropped for unwritable clients (from each \
            client's status), the daemon's CPU (of one core, from /proc/PID/stat) and RSS, and the latency from a \
            sample entering the daemon to a client reading its frame (the frame's "mono" field against this \
            process's CLOCK_MONOTONIC). --churn K then connects and vanishes K times (a third with a half-sent \
            line, a third closing while frames stream to them, a third at once) and reports RSS and open file \
            descriptors before and after. Build with -c release for numbers worth quoting.
            """)

    @Option(name: .long, parsing: .unconditional, help: "Number of watching clients.")
    var clients = 10

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp("Frames per second each client asks for.", valueName: "HZ"))
    var rate = 60.0

    @Option(
        name: .long, parsing: .unconditional, help: ArgumentHelp("Length of the measurement window.", valueName: "S"))
    var seconds = 10.0

    @OptionGroup var daemon: BenchDaemonOptions

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp("Connect-and-vanish this many clients afterwards.", valueName: "N"))
    var churn = 0

    func validate() throws {
        guard clients > 0 else { throw ValidationError("--clients must be at least 1") }
        guard rate >= WireProtocol.minRate, rate <= WireProtocol.maxRate else { throw ValidationError(Watch.rateRange) }
        guard seconds > 0, seconds.isFinite else { throw ValidationError("--seconds must be a positive number") }
        guard churn >= 0 else { throw ValidationError("--churn must not be negative") }
    }

    func run() async throws {
        let benchmark = DaemonBenchmark(
            clients: clients, rate: rate, seconds: seconds, bin: daemon.bin, log: daemon.log, churn: churn)
        print(try benchmark.run().text)
    }
}
