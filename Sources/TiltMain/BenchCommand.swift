import ArgumentParser
import FoundationEssentials
import TiltCore
import TiltFusion
import TiltTools

/// `tilt bench`: benchmarks of the library's parts on recorded data.
struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Benchmark the fusion filter on recorded data, tiltd under many clients, and its DSU server.",
        subcommands: [FusionBench.self, DaemonBench.self, DSUBench.self])
}

/// `tilt bench fusion`: fuses every log in a folder, scores it against its reference with BROAD's metric and times
/// the filter.
struct FusionBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fusion",
        abstract: "Score the attitude filter on logs with a reference orientation (BROAD metric), 9D and 6D.",
        discussion: """
            Every .csv or .csv.gz log in the folder that has truth_w..z columns is fused twice with the default \
            filter, with (9D) and without (6D) its magnetometer, and scored over the rows with movement = 1 and a \
            known reference: RMSE in degrees of the total, heading and inclination error. 6D scores have the mean \
            heading offset removed. Speed counts the filter alone (parsing excluded), as the thread's CPU time; build \
            with -c release. --cross-validate scores the tuned parameters by leaving each trial out in turn; \
            scripts/compare-vqf puts VQF beside every trial. --predict SECONDS scores the attitude predicted that \
            far ahead against the reference at t + SECONDS, beside the unpredicted attitude and plain \
            constant-angular-velocity prediction scored against the same shifted reference, per trial; with \
            --cross-validate each trial is predicted by a model fitted without it.
            """)

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Folder of logs (default: ../shared/data/broad from here, then from the repository).", valueName: "DIR"))
    var data: String?

    @Option(
        name: .long,
        help: ArgumentHelp("Only logs whose file name matches this shell pattern, e.g. '0*'.", valueName: "GLOB"))
    var trials: String?

    @Option(name: .customLong("set"), help: Self.setHelp)
    var overrides: [String] = []

    @Flag(
        name: .long,
        help: """
            Score every tuned parameter by leaving each trial out in turn: the value used on a trial is the one \
            best on the other trials (9D total). Prints each trial's held-out score beside its score with the \
            defaults, and the values chosen.
            """)
    var crossValidate = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Score motion-to-photon prediction this many seconds ahead (0.001 to 0.1), e.g. 0.03.",
            valueName: "SECONDS"))
    var predict: Double?

    @Flag(name: .long, help: "Print the scores and the speed as one JSON object per configuration (for scripts).")
    var json = false

    @OptionGroup var badRows: StrictOption

    private static let setHelp = ArgumentHelp(
        "Override a filter parameter, e.g. 'accelTimeConstant=2'; several values ('=2,3,4') score each"
            + " (a sensitivity check); repeat for more parameters. Names: \(ConfigurationSweep.parameterNames).",
        valueName: "NAME=VALUES")

    /// A malformed or out-of-range `--set` is a usage mistake: said before any log is read.
    func validate() throws {
        if let predict {
            guard predict.isFinite, predict >= 0.001, predict <= 0.1 else {
                throw ValidationError("--predict must be from 0.001 to 0.1 seconds (e.g. 0.03), not \(predict)")
            }
            guard !json, overrides.isEmpty else {
                throw ValidationError("--predict prints its own table: it takes neither --json nor --set")
            }
        }
        do {
            _ = try ConfigurationSweep(overrides: overrides)
        } catch {
            throw ValidationError(error.message)
        }
    }

    func run() async throws {
        let variants = try ConfigurationSweep(overrides: overrides).variants
        let folder = try BenchInput.dataFolder(given: data)
        let names = try FusionBenchmark.logNames(in: folder, matching: trials)
        let logs = try FusionBenchmark.trials(in: folder, names: names, read: { try badRows.read($0) }) {
            StandardStream.error.write(Data(($0 + "\n").utf8))
        }
        if let predict {
            let report = PredictionBenchmark.run(logs, horizon: predict, crossValidate: crossValidate) {
                StandardStream.error.write(Data(($0 + "\n").utf8))
            }
            print(PredictionBenchmark.text(report))
            return
        }
        if crossValidate {
            print(
                try FusionBenchmark.crossValidate(logs, base: variants[0].configuration) {
                    StandardStream.error.write(Data(($0 + "\n").utf8))
                })
            return
        }
        for variant in variants {
            let result = FusionBenchmark.score(logs, configuration: variant.configuration, label: variant.label)
            if json {
                print(result.json)
                continue
            }
            if variants.count > 1 { print("\n" + variant.label) }
            print(result.text)
        }
    }
}
