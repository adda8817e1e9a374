import FoundationEssentials
import TiltCore
import TiltFusion
import TiltSensors

#if canImport(Glibc)
    import Glibc
#endif

/// `tilt bench fusion`: every log of a folder fused with and without its magnetometer, scored against its reference
/// with BROAD's metric, and the filter timed; or the tuned parameters scored by leaving each trial out.
package enum FusionBenchmark {
    /// A log with a reference orientation.
    package struct Trial: Sendable {
        /// The file name.
        package var name: String
        /// The samples.
        package var log: SensorLog
        /// The reference orientation of each sample, where known.
        package var truth: [Quaternion?]

        /// The trial `name` of `log`, with its reference `truth`.
        package init(name: String, log: SensorLog, truth: [Quaternion?]) {
            self.name = name
            self.log = log
            self.truth = truth
        }
    }

    /// One trial's scores: 9D (`nil` for a log without a magnetometer) and 6D.
    package typealias Row = (name: String, nine: BroadScore?, six: BroadScore)

    /// The scores and speed of one filter configuration over every trial.
    package struct Result: Sendable {
        /// The configuration's label (its `--set` values).
        package var label: String
        /// One row per trial.
        package var rows: [(name: String, nine: BroadScore?, six: BroadScore)]
        /// Samples fused per second of filter time, 9D and 6D together, and how many.
        package var rate: Double
        /// See ``rate``.
        package var samples: Int
        /// Samples fused per second of filter time, 9D alone, and how many.
        package var nineRate: Double
        /// See ``nineRate``.
        package var nineSamples: Int
        /// The heading accuracy the 9D frames reported, per trial where they did.
        package var headingAccuracies: [Double]

        /// The table, the reported heading accuracy and the speed, as `tilt bench fusion` prints them.
        package var text: String {
            var lines = [FusionBenchmark.table(rows)]
            if !headingAccuracies.isEmpty {
                lines.append(
                    String(
                        printf: "heading accuracy the 9D frames reported (RMS over the scored rows, mean over trials):"
                            + " %.2f°, beside the 9D heading RMSE above",
                        headingAccuracies.reduce(0, +) / Double(headingAccuracies.count)))
            }
            lines.append(
                String(
                    printf: "filter speed: %.2f M samples/s 9D + 6D (%d samples), %.2f M samples/s 9D alone;"
                        + " one core, parsing excluded", rate / 1e6, samples, nineRate / 1e6))
            return lines.joined(separator: "\n")
        }

        /// The result as one JSON object (see ``FusionBenchmark/json(_:label:rate:samples:nineRate:nineSamples:)``).
        package var json: String {
            FusionBenchmark.json(
                rows, label: label, rate: rate, samples: samples, nineRate: nineRate, nineSamples: nineSamples)
        }
    }

    /// The sorted names of the `.csv` and `.csv.gz` logs in `folder` that match the shell `pattern`, if any.
    ///
    /// - Throws: ``BenchError`` when the folder cannot be listed or holds no such log.
    package static func logNames(in folder: String, matching pattern: String?) throws -> [String] {
        let all: [String]
        do {
            all = try FileManager.default.contentsOfDirectory(atPath: folder)
        } catch {
            throw BenchError(.input, "cannot list \(folder): \(errorReason(error))")
        }
        let names = all.filter { name in
            guard name.hasSuffix(".csv") || name.hasSuffix(".csv.gz") else { return false }
            guard let pattern else { return true }
            return fnmatch(pattern, name, 0) == 0
        }.sorted()
        guard !names.isEmpty else {
            throw BenchError(
                .input,
                "no .csv or .csv.gz logs in \(folder)" + (pattern.map { " matching '\($0)'" } ?? "")
                    + "; pass a folder of sensor logs with --data DIR")
        }
        return names
    }

    /// Reads the logs `names` in `folder` with `read`, keeping those with a reference orientation; `progress` gets
    /// a line per log (and one per log skipped).
    ///
    /// - Throws: ``BenchError`` when a log cannot be read, or none has a reference.
    package static func trials(
        in folder: String, names: [String], read: (String) throws -> SensorLog, progress: (String) -> Void
    ) throws -> [Trial] {
        var trials: [Trial] = []
        for (index, name) in names.enumerated() {
            progress("[\(index + 1)/\(names.count)] \(name)")
            let log: SensorLog
            do {
                log = try read(folder + "/" + name)
            } catch {
                throw BenchError(.input, "cannot read \(folder)/\(name): \(error)")
            }
            guard let truth = log.truth else {
                progress("  skipped: no truth_w..z columns")
                continue
            }
            trials.append(Trial(name: name, log: log, truth: truth))
        }
        guard !trials.isEmpty else {
            throw BenchError(.input, "no log in \(folder) has a reference orientation (truth_w..z columns)")
        }
        return trials
    }

    /// Fuses and scores every trial with `configuration`, labelled `label`.
    package static func score(
        _ trials: [Trial], configuration: AttitudeFilter.Configuration, label: String
    ) -> Result {
        var rows: [Row] = []
        var fusedSamples = 0
        var fusedSeconds = 0.0
        var nineSamples = 0
        var nineSeconds = 0.0
        var accuracies: [Double] = []
        for t in trials {
            let trial = BroadTrial(
                samples: t.log.samples, truth: t.truth, movement: t.log.movement,
                hasMagnetometer: t.log.hasMagnetometer, configuration: configuration)
            fusedSamples += trial.fusedSamples
            fusedSeconds += trial.filterSeconds
            if trial.nine != nil {
                nineSamples += t.log.samples.count
                nineSeconds += trial.nineSeconds
            }
            rows.append((t.name, trial.nine, trial.six))
            if let accuracy = trial.headingAccuracy { accuracies.append(accuracy) }
        }
        return Result(
            label: label, rows: rows, rate: fusedSeconds > 0 ? Double(fusedSamples) / fusedSeconds : 0,
            samples: fusedSamples, nineRate: nineSeconds > 0 ? Double(nineSamples) / nineSeconds : 0,
            nineSamples: nineSamples, headingAccuracies: accuracies)
    }

    /// `--cross-validate`: leave-one-trial-out scores of the tuned parameters over the trials with a
    /// magnetometer, as a table; `progress` gets a line per step.
    ///
    /// - Throws: ``BenchError`` with fewer than two such trials.
    package static func crossValidate(
        _ trials: [Trial], base: AttitudeFilter.Configuration, progress: (String) -> Void
    ) throws -> String {
        let trials = trials.filter(\.log.hasMagnetometer).map {
            CrossValidation.Trial(name: $0.name, samples: $0.log.samples, truth: $0.truth, movement: $0.log.movement)
        }
        guard trials.count >= 2 else {
            throw BenchError(.input, "--cross-validate needs at least two logs with a magnetometer and a reference")
        }
        return crossValidationTable(CrossValidation(trials: trials, base: base, progress: progress))
    }

    /// One JSON object: `{"label":…,"speed":samples/s,"samples":N,"speed9D":…,"samples9D":…,"trials":[{"name":…,"nine":{…}|null,"six":{…}}]}`,
    /// each score as `{"total":…,"heading":…,"inclination":…}` in degrees (`null` where not finite).
    package static func json(
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
            "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
        }
        let trials = rows.map { "{\"name\":\(quoted($0.name)),\"nine\":\(score($0.nine)),\"six\":\(score($0.six))}" }
        return "{\"label\":\(quoted(label)),\"speed\":\(number(rate)),\"samples\":\(samples),"
            + "\"speed9D\":\(number(nineRate)),\"samples9D\":\(nineSamples),\"trials\":["
            + trials.joined(separator: ",") + "]}"
    }
    /// The leave-one-trial-out table: the candidates, each trial's held-out and default scores, the values chosen.
    package static func crossValidationTable(_ result: CrossValidation) -> String {
        func cell(_ v: Double) -> String { v.isFinite ? String(printf: "%7.2f", v) : "      –" }
        let width = max(5, result.rows.map(\.name.count).max() ?? 5)
        func pad(_ s: String) -> String { s.padded(to: width) }
        var lines = ["tuned parameters and their candidates (mean 9D total over all trials, for reference):"]
        for (grid, means) in result.grids {
            let values = zip(grid.candidates, means).map { String(printf: "%g: %.3f", $0, $1) }
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
            let chosen = zip(result.grids, r.chosen).map { "\($0.grid.parameter.name)=\(String(printf: "%g", $1))" }
            lines.append("  " + pad(r.name) + "  " + chosen.joined(separator: " "))
        }
        return lines.joined(separator: "\n")
    }

    /// The scores table: one row per trial, 9D and 6D, then the means.
    package static func table(_ rows: [(name: String, nine: BroadScore?, six: BroadScore)]) -> String {
        func cell(_ v: Double?) -> String { v.map { String(printf: "%7.2f", $0) } ?? "      –" }
        let width = max(5, rows.map(\.name.count).max() ?? 5)
        func pad(_ s: String) -> String { s.padded(to: width) }
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
}
