import FoundationEssentials

/// Writes one sensor's new correction into a calibration file: a new file matched to the device, or (when allowed)
/// an existing one with that sensor's values replaced, the others and their comment history kept.
///
/// `tilt calibrate gyro|accel|mag` each fit one part; running them in turn builds one file. The comment at the top
/// says how each part was measured: every run adds its lines (the first starts `tilt calibrate <part>`), and a run
/// that replaces a part drops the earlier run's lines for that part, which describe values no longer in the file.
/// Lines that no run wrote (a person's notes) are kept: which parts they describe cannot be told.
package enum CalibrationFileUpdate {
    /// Why the file was not written.
    package enum Failure: Error, Sendable, Equatable {
        /// The file exists and replacing was not allowed.
        case exists(path: String)
        /// A new file would have no `[match]` keys, so it would apply to every device, and that was not asked for.
        case matchesEveryDevice(path: String)
        /// The existing file could not be read or parsed (the error says where).
        case unreadable(CalibrationFileError)
        /// Writing failed.
        case unwritable(CalibrationFileError)
    }

    /// The part of a calibration a `tilt calibrate` run measures.
    package enum Part: String, Sendable, CaseIterable {
        case gyro, accel, mag

        /// The command that measures it, which also starts its lines in a file's comment.
        package var command: String { "tilt calibrate \(rawValue)" }
    }

    /// `calibration.d/<product>-<sensor>.calib` in `directory` (the user's folder), from whatever is known; characters
    /// other than letters, digits, `-` and `_` become `-`.
    package static func defaultPath(
        for identity: CalibrationIdentity, directory: String = CalibrationLoader.userDirectory()
    ) -> String {
        let parts = [identity.productName, identity.name].compactMap { $0 }
        let raw = parts.isEmpty ? "default" : parts.joined(separator: "-")
        let safe = String(raw.lowercased().map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "-" })
        return directory + "/" + safe + "." + CalibrationFile.pathExtension
    }

    /// Applies `update` to the calibration in the file at `path` (or a new one matched to `identity`) and writes it,
    /// with the existing comment lines followed by `comment`.
    ///
    /// - Parameters:
    ///   - identity: The device a new file is matched to (`[match]`); an existing file keeps its own.
    ///   - replaceExisting: Whether an existing file may be changed.
    ///   - part: The part this run measures: an earlier run's comment lines for it are dropped. `nil` keeps them all.
    ///   - matchEveryDevice: Whether a new file may have no `[match]` keys. Such a file applies to any device tiltd
    ///     runs on, and wins over the bundled identity file, so one device's errors would be applied to others.
    /// - Throws: ``Failure``.
    package static func write(
        to path: String, identity: CalibrationIdentity, replaceExisting: Bool, part: Part? = nil,
        matchEveryDevice: Bool = false, comment: [String], update: (inout Calibration) -> Void
    ) throws(Failure) {
        var calibration: Calibration
        var history: [String] = []
        if FileManager.default.fileExists(atPath: path) {
            guard replaceExisting else { throw .exists(path: path) }
            do {
                calibration = try CalibrationFile.read(path: path)
            } catch {
                throw .unreadable(error)
            }
            if let old = try? String(contentsOfFile: path, encoding: .utf8) {
                history = Self.history(of: old, dropping: part)
            }
        } else {
            guard identity.specificity > 0 || matchEveryDevice else { throw .matchesEveryDevice(path: path) }
            calibration = Calibration(match: identity)
        }
        update(&calibration)
        do {
            try CalibrationFile.write(
                CalibrationFile.text(for: calibration, comment: history + comment), to: path,
                overwrite: replaceExisting)
        } catch {
            throw .unwritable(error)
        }
    }

    /// The comment lines at the top of a calibration file's `text` (without `# `), less the lines of the runs that
    /// measured `part`: from a line starting with its command up to the next run's first line.
    static func history(of text: String, dropping part: Part?) -> [String] {
        let comments = text.split(separator: "\n").prefix { $0.hasPrefix("#") }
        var kept: [String] = []
        var inDroppedRun = false
        for comment in comments {
            let body = comment.dropFirst()
            let line = String(body.hasPrefix(" ") ? body.dropFirst() : body)
            if let run = Part.allCases.first(where: { line.hasPrefix($0.command + " ") }) {
                inDroppedRun = run == part
            }
            if !inDroppedRun { kept.append(line) }
        }
        return kept
    }
}
