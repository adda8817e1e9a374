import ArgumentParser
import Foundation
import TiltCore
import TiltFusion
import TiltSensors

#if canImport(Glibc)
    import Glibc
#endif

/// `tilt bench`: benchmarks of the library's parts on recorded data.
struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Benchmark the fusion filter on recorded data, and tiltd under many clients.",
        subcommands: [FusionBench.self, DaemonBench.self])
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
            scripts/compare-vqf puts VQF beside every trial.
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

    @Flag(name: .long, help: "Print the scores and the speed as one JSON object per configuration (for scripts).")
    var json = false

    @OptionGroup var badRows: StrictOption

    private static let setHelp = ArgumentHelp(
        "Override a filter parameter, e.g. 'accelTimeConstant=2'; several values ('=2,3,4') score each"
            + " (a sensitivity check); repeat for more parameters. Names: \(ConfigurationSweep.parameterNames).",
        valueName: "NAME=VALUES")

    /// A malformed or out-of-range `--set` is a usage mistake: said before any log is read.
    func validate() throws {
        do {
            _ = try ConfigurationSweep(overrides: overrides)
        } catch {
            throw ValidationError(error.message)
        }
    }

    func run() async throws {
        let variants = try ConfigurationSweep(overrides: overrides).variants
        let folder = try resolveFolder()
        let names = try logNames(in: folder)
        var logs: [(name: String, log: SensorLog, truth: [Quaternion?])] = []
        for (index, name) in names.enumerated() {
            FileHandle.standardError.write(Data("[\(index + 1)/\(names.count)] \(name)\n".utf8))
            let log: SensorLog
            do {
                log = try badRows.read(folder + "/" + name)
            } catch {
                throw BenchError("cannot read \(folder)/\(name): \(error)")
            }
            guard let truth = log.truth else {
                FileHandle.standardError.write(Data("  skipped: no truth_w..z columns\n".utf8))
                continue
            }
            logs.append((name, log, truth))
        }
        guard !logs.isEmpty else {
            throw BenchError("no log in \(folder) has a reference orientation (truth_w..z columns)")
        }
        if crossValidate {
            try runCrossValidation(logs, base: variants[0].configuration)
            return
        }
        for variant in variants {
            var rows: [(name: String, nine: BroadScore?, six: BroadScore)] = []
            var fusedSamples = 0
            var fusedSeconds = 0.0
            var nineSamples = 0
            var nineSeconds = 0.0
            var accuracies: [Double?] = []
            for (name, log, truth) in logs {
                let trial = BroadTrial(
                    samples: log.samples, truth: truth, movement: log.movement, hasMagnetometer: log.hasMagnetometer,
                    configuration: variant.configuration)
                fusedSamples += trial.fusedSamples
                fusedSeconds += trial.filterSeconds
                if trial.nine != nil {
                    nineSamples += log.samples.count
                    nineSeconds += trial.nineSeconds
                }
                rows.append((name, trial.nine, trial.six))
                accuracies.append(trial.headingAccuracy)
            }
            let rate = fusedSeconds > 0 ? Double(fusedSamples) / fusedSeconds : 0
            let nineRate = nineSeconds > 0 ? Double(nineSamples) / nineSeconds : 0
            if json {
                print(
                    Self.json(
                        rows, label: variant.label, rate: rate, samples: fusedSamples, nineRate: nineRate,
                        nineSamples: nineSamples))
                continue
            }
            if variants.count > 1 { print("\n" + variant.label) }
            print(Self.table(rows))
            let reported = accuracies.compactMap { $0 }
            if !reported.isEmpty {
                print(
                    String(
                        format: "heading accuracy the 9D frames reported (RMS over the scored rows, mean over trials):"
                            + " %.2f°, beside the 9D heading RMSE above", reported.reduce(0, +) / Double(reported.count)
                    ))
            }
            print(
                String(
                    format: "filter speed: %.2f M samples/s 9D + 6D (%d samples), %.2f M samples/s 9D alone;"
                        + " one core, parsing excluded", rate / 1e6, fusedSamples, nineRate / 1e6))
        }
    }

    /// One JSON object: `{"label":…,"speed":samples/s,"samples":N,"speed9D":…,"samples9D":…,"trials":[{"name":…,"nine":{…}|null,"six":{…}}]}`,
    /// each score as `{"total":…,"heading":…,"inclination":…}` in degrees (`null` where not finite).
    static func json(
        _ rows: [(name: String, nine: BroadScore?, six: BroadScore)], label: String, rate: Double, samples: Int,
        nineRate: Double, nineSamples: Int
    ) -> String {
        func number(_ v: Double) -> String { v.isFinite ? "\(v)" : "null" }
        func score(_ s: BroadScore?) -> String {
            guard let s else { return "null" }
            return "{\"total\":\(number(s.total)),\"heading\":\(number(s.heading)),"
                + "\"inclination\":\(number(s.inclination))}"
        }
        func quoted(_ text: String) -> String {
            "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        let trials = rows.map { "{\"name\":\(quoted($0.name)),\"nine\":\(score($0.nine)),\"six\":\(score($0.six))}" }
        return "{\"label\":\(quoted(label)),\"speed\":\(number(rate)),\"samples\":\(samples),"
            + "\"speed9D\":\(number(nineRate)),\"samples9D\":\(nineSamples),\"trials\":["
            + trials.joined(separator: ",") + "]}"
    }

    /// `--cross-validate`: leave-one-trial-out scores of the tuned parameters (9D logs only).
    func runCrossValidation(
        _ logs: [(name: String, log: SensorLog, truth: [Quaternion?])], base: AttitudeFilter.Configuration
    ) throws {
        let trials = logs.filter(\.log.hasMagnetometer).map {
            CrossValidation.Trial(name: $0.name, samples: $0.log.samples, truth: $0.truth, movement: $0.log.movement)
        }
        guard trials.count >= 2 else {
            throw BenchError("--cross-validate needs at least two logs with a magnetometer and a reference")
        }
        let result = CrossValidation(trials: trials, base: base) {
            FileHandle.standardError.write(Data(($0 + "\n").utf8))
        }
        print(Self.crossValidationTable(result))
    }

    static func crossValidationTable(_ result: CrossValidation) -> String {
        func cell(_ v: Double) -> String { v.isFinite ? String(format: "%7.2f", v) : "      –" }
        let width = max(5, result.rows.map(\.name.count).max() ?? 5)
        func pad(_ s: String) -> String { s.padding(toLength: width, withPad: " ", startingAt: 0) }
        var lines = ["tuned parameters and their candidates (mean 9D total over all trials, for reference):"]
        for (grid, means) in result.grids {
            let values = zip(grid.candidates, means).map { String(format: "%g: %.3f", $0, $1) }
            lines.append("  \(grid.parameter.name) (\(grid.parameter.unit)): " + values.joined(separator: ", "))
        }
        lines.append("")
        lines.append(
            pad("") + "   held-out 9D total  heading  inclin.    defaults 9D total  inclin.   (RMSE, degrees)")
        for r in result.rows {
            lines.append(
                pad(r.name) + "           " + cell(r.heldOut.total) + "  " + cell(r.heldOut.heading) + "  "
                    + cell(r.heldOut.inclination) + "             " + cell(r.defaults.total) + "  "
                    + cell(r.defaults.inclination))
        }
        let rows = result.rows
        lines.append(
            pad("mean") + "           " + cell(CrossValidation.mean(rows.map(\.heldOut.total))) + "  "
                + cell(CrossValidation.mean(rows.map(\.heldOut.heading))) + "  "
                + cell(CrossValidation.mean(rows.map(\.heldOut.inclination))) + "             "
                + cell(CrossValidation.mean(rows.map(\.defaults.total))) + "  "
                + cell(CrossValidation.mean(rows.map(\.defaults.inclination))))
        lines.append("")
        lines.append("values chosen without each trial:")
        for r in rows {
            let chosen = zip(result.grids, r.chosen).map { "\($0.grid.parameter.name)=\(String(format: "%g", $1))" }
            lines.append("  " + pad(r.name) + "  " + chosen.joined(separator: " "))
        }
        return lines.joined(separator: "\n")
    }

    static func table(_ rows: [(name: String, nine: BroadScore?, six: BroadScore)]) -> String {
        func cell(_ v: Double?) -> String { v.map { String(format: "%7.2f", $0) } ?? "      –" }
        let width = max(5, rows.map(\.name.count).max() ?? 5)
        func pad(_ s: String) -> String { s.padding(toLength: width, withPad: " ", startingAt: 0) }
        var lines = [
            pad("") + "   9D total  heading  inclin.   6D total  heading  inclin.   (RMSE, degrees)"
        ]
        for r in rows {
            lines.append(
                pad(r.name) + "  " + cell(r.nine?.total) + "  " + cell(r.nine?.heading) + "  "
                    + cell(r.nine?.inclination) + "    " + cell(r.six.total) + "  " + cell(r.six.heading) + "  "
                    + cell(r.six.inclination))
        }
        func mean(_ values: [Double?]) -> Double? {
            let v = values.compactMap { $0 }.filter(\.isFinite)
            return v.isEmpty ? nil : v.reduce(0, +) / Double(v.count)
        }
        lines.append(
            pad("mean") + "  " + cell(mean(rows.map { $0.nine?.total })) + "  "
                + cell(mean(rows.map { $0.nine?.heading })) + "  " + cell(mean(rows.map { $0.nine?.inclination }))
                + "    " + cell(mean(rows.map { $0.six.total })) + "  " + cell(mean(rows.map { $0.six.heading }))
                + "  " + cell(mean(rows.map { $0.six.inclination })))
        return lines.joined(separator: "\n")
    }

    /// The data folder: `--data`, else `../shared/data/broad` from the working directory, else from the repository.
    func resolveFolder() throws -> String {
        let candidates = [
            FileManager.default.currentDirectoryPath + "/../shared/data/broad",
            BenchInput.repository.appendingPathComponent("../shared/data/broad").path,
        ]
        return try BenchInput.resolve(
            option: "--data", given: data, defaults: candidates, usable: BenchInput.isFolder,
            unusable: "no such folder",
            missing: "no data folder found at \(candidates.joined(separator: " or ")); pass one with --data DIR")
    }

    /// The sorted names of the logs in the folder that match `--trials`.
    func logNames(in folder: String) throws -> [String] {
        let all: [String]
        do {
            all = try FileManager.default.contentsOfDirectory(atPath: folder)
        } catch {
            throw BenchError("cannot list \(folder): \(error.localizedDescription)")
        }
        let names = all.filter { name in
            guard name.hasSuffix(".csv") || name.hasSuffix(".csv.gz") else { return false }
            guard let pattern = trials else { return true }
            return fnmatch(pattern, name, 0) == 0
        }.sorted()
        guard !names.isEmpty else {
            throw BenchError(
                "no .csv or .csv.gz logs in \(folder)" + (trials.map { " matching '\($0)'" } ?? "")
                    + "; pass a folder of sensor logs with --data DIR")
        }
        return names
    }
}

/// A benchmark failure that is not a usage mistake: printed as `error: …` without the usage text.
struct BenchError: Error, CustomStringConvertible {
    /// What went wrong, where, and what to do.
    let description: String

    init(_ description: String) { self.description = description }
}
