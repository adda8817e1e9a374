import ArgumentParser
import TiltTools

/// `tilt bench dsu`: the DSU server's packet rate, CPU and added latency (issue 31).
struct DSUBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dsu",
        abstract: "Measure tiltd's DSU server: packets per second, its CPU, and sample → packet latency.",
        discussion: """
            Starts tiltd replaying the log in a loop, sped up to --rate samples per second, with --dsu-server on a \
            free loopback port. One socket client watches every frame throughout; for --seconds the daemon runs with \
            it alone, then for --seconds more with a DSU subscriber too (renewing every second, as emulators do). \
            Prints the data packets per second and any lost, tiltd's CPU (of one core, from /proc/PID/stat) in both \
            windows, and the time from a sample entering tiltd (its frame's "mono") to its DSU packet arriving here, \
            beside the same for the socket's frames. Build with -c release for numbers worth quoting.
            """)

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp("Samples per second tiltd replays (the log sped up to it).", valueName: "HZ"))
    var rate = 1000.0

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp("Length of each of the two windows.", valueName: "S"))
    var seconds = 10.0

    @OptionGroup var daemon: BenchDaemonOptions

    func validate() throws {
        guard rate > 0, rate <= 10000, rate.isFinite else {
            throw ValidationError("--rate must be from above 0 to 10000 samples per second")
        }
        guard seconds > 0, seconds.isFinite else { throw ValidationError("--seconds must be a positive number") }
    }

    func run() async throws {
        print(try DSUBenchmark(rate: rate, seconds: seconds, bin: daemon.bin, log: daemon.log).run().text)
    }
}
