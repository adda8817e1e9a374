import Foundation

/// Writes one sensor's new correction into a calibration file: a new file matched to the device, or (when allowed)
/// an existing one with that sensor's values replaced, the others and the comment history kept.
///
/// `tilt calibrate gyro|accel|mag` each fit one part; running them in turn builds one file. The comment at the top
/// grows by the lines given on each run, so the file says how each part was measured.
public enum CalibrationFileUpdate {
    /// Why the file was not written.
    public enum Failure: Error, Sendable, Equatable {
        /// The file exists and replacing was not allowed.
        case exists(path: String)
        /// The existing file could not be read or parsed (the error says where).
        case unreadable(CalibrationFileError)
        /// Writing failed.
        case unwritable(CalibrationFileError)
    }

    /// `calibration.d/<product>-<sensor>.calib` in `directory` (the user's folder), from whatever is known; characters
    /// other than letters, digits, `-` and `_` become `-`.
    public static func defaultPath(
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
    /// - Throws: ``Failure``.
    public static func write(
        to path: String, identity: CalibrationIdentity, replaceExisting: Bool, comment: [String],
        update: (inout Calibration) -> Void
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
                history = old.split(separator: "\n").prefix { $0.hasPrefix("#") }.map { String($0.dropFirst(2)) }
            }
        } else {
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
}
