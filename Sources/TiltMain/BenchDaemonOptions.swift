import ArgumentParser

/// `--bin DIR` and `--log FILE`: where the daemon a bench starts is, and the log it replays (`tilt bench daemon`,
/// `tilt bench dsu`). `--bin` names the programs as every bench does (scripts/bench).
struct BenchDaemonOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp("The folder of the tiltd to run (default: this tilt's folder).", valueName: "DIR"))
    var bin: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Log to replay (default: the repository's Tests/Fixtures/broad-01-excerpt.csv.gz).", valueName: "FILE"))
    var log: String?
}
