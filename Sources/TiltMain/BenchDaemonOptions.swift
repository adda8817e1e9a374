import ArgumentParser

/// `--tiltd PATH` and `--log FILE`: the daemon a bench starts and the log it replays (`tilt bench daemon`, `tilt bench
/// dsu`).
struct BenchDaemonOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The tiltd to run (default: next to this tilt).", valueName: "PATH"))
    var tiltd: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Log to replay (default: the repository's Tests/Fixtures/broad-01-excerpt.csv.gz).", valueName: "FILE"))
    var log: String?
}
