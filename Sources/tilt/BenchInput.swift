import Foundation
import TiltCore

/// Where a bench finds its inputs (the data folder, the log, the tiltd to run): the path an option names, checked,
/// else the first usable default.
enum BenchInput {
    /// The clone this `tilt` runs from (the bundled fixtures and the shared data live beside it): the folder holding
    /// `Package.swift` above the executable (a build in `.build/…/debug/`), else the working directory (an installed
    /// `tilt`). Found from the executable rather than `#filePath`, so no installed program names the build machine's
    /// folders.
    static let repository: URL = {
        var folder = URL(fileURLWithPath: InstalledData.executablePath).deletingLastPathComponent()
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
                return folder
            }
            folder.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }()

    /// `given` when the option was passed, else the first of `defaults` that is usable.
    ///
    /// - Parameters:
    ///   - option: The option's name, e.g. `--log`, for the message.
    ///   - usable: Whether a path can be used.
    ///   - unusable: What is wrong with a given path that is not usable, e.g. "no such folder".
    ///   - missing: The message when no default is usable.
    /// - Throws: ``BenchError`` for a named path that is not usable, and when no default is: a missing file is not
    ///   a usage mistake, so it exits with status 1 and its message, without the usage text.
    static func resolve(
        option: String, given: String?, defaults: [String], usable: (String) -> Bool, unusable: String,
        missing: String
    ) throws -> String {
        if let given {
            guard usable(given) else { throw BenchError("\(option) \(given): \(unusable)") }
            return given
        }
        guard let found = defaults.first(where: usable) else { throw BenchError(missing) }
        return found
    }

    /// Whether `path` is a folder.
    static func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
