import FoundationEssentials
import TiltCore

/// Where a bench finds its inputs (the data folder, the log, the tiltd to run): the path an option names, checked,
/// else the first usable default.
package enum BenchInput {
    /// The clone this `tilt` runs from (the bundled fixtures and the shared data live beside it): the folder holding
    /// `Package.swift` above the executable (a build in `.build/…/debug/`), else the working directory (an installed
    /// `tilt`). Found from the executable rather than `#filePath`, so no installed program names the build machine's
    /// folders.
    package static let repository: URL = {
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
    package static func resolve(
        option: String, given: String?, defaults: [String], usable: (String) -> Bool, unusable: String,
        missing: String
    ) throws -> String {
        if let given {
            guard usable(given) else { throw BenchError(.input, "\(option) \(given): \(unusable)") }
            return given
        }
        guard let found = defaults.first(where: usable) else { throw BenchError(.input, missing) }
        return found
    }

    /// Whether `path` is a folder.
    package static func isFolder(_ path: String) -> Bool {
        var isDirectory = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory
    }

    /// The tiltd `tilt bench daemon` runs: the one in the folder `bin` (`--bin DIR`), else the tiltd next to this
    /// executable.
    package static func tiltd(bin: String?) throws -> String {
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        if let bin {
            let path = URL(fileURLWithPath: bin).appendingPathComponent("tiltd").path
            guard FileManager.default.isExecutableFile(atPath: path) else {
                throw BenchError(.input, "--bin \(bin): no tiltd there to run; pass the folder of a build with tiltd")
            }
            return path
        }
        return try resolve(
            option: "--bin", given: nil,
            defaults: [me.deletingLastPathComponent().appendingPathComponent("tiltd").path],
            usable: FileManager.default.isExecutableFile(atPath:), unusable: "not an executable file",
            missing: "no tiltd next to \(me.path); build it (swift build --product tiltd) or pass --bin DIR")
    }

    /// The log `tilt bench daemon` replays: `given` (`--log`), else the bundled fixture (from the working
    /// directory, then from the repository this was built in).
    package static func daemonLog(given: String?) throws -> String {
        let fixture = "Tests/Fixtures/broad-01-excerpt.csv.gz"
        let candidates = [
            FileManager.default.currentDirectoryPath + "/" + fixture,
            repository.appendingPathComponent(fixture).path,
        ]
        return try resolve(
            option: "--log", given: given, defaults: candidates, usable: FileManager.default.isReadableFile(atPath:),
            unusable: "no such readable file",
            missing: "no bundled log at \(candidates.joined(separator: " or ")); pass one with --log FILE")
    }

    /// The data folder of `tilt bench fusion`: `given` (`--data`), else `../shared/data/broad` from the working
    /// directory, else from the repository.
    package static func dataFolder(given: String?) throws -> String {
        let candidates = [
            FileManager.default.currentDirectoryPath + "/../shared/data/broad",
            repository.appendingPathComponent("../shared/data/broad").path,
        ]
        return try resolve(
            option: "--data", given: given, defaults: candidates, usable: isFolder, unusable: "no such folder",
            missing: "no data folder found at \(candidates.joined(separator: " or ")); pass one with --data DIR")
    }
}

/// A benchmark failure that is not a usage mistake: printed as `error: …` without the usage text.
package typealias BenchError = TiltError<BenchErrorKind>

/// What went wrong.
package enum BenchErrorKind: Sendable, Hashable {
    /// An input (a program, a log, a folder of logs) is missing, unusable or unreadable.
    case input
    /// The daemon under test did not start, answer or serve its clients.
    case daemon
    /// This machine's limits (open files, a temporary folder) do not allow the run.
    case system
}
