import FoundationEssentials
import TiltCore

/// Finds the calibration file for a device: searches folders of `*.calib` files and picks the best match.
///
/// Best match: among the files whose `[match]` keys all agree with the device, the one with the most keys; on a
/// tie the earlier folder wins, and within a folder the file whose name sorts first. A file that cannot be read is
/// skipped, and the explanation says so.
package enum CalibrationLoader {
    /// The outcome of a search: the calibration to apply (if any), and why, for logs and `tilt status`.
    package struct Resolution: Sendable {
        /// The calibration to apply, or `nil` to run uncalibrated.
        package var calibration: Calibration?
        /// The file it came from.
        package var path: String?
        /// One line for people: `PATH: matched name=bmi160, …`, or `none: …` saying why none applies.
        package var explanation: String
        /// Files that could not be read, with their errors (also summed up in ``explanation``).
        package var problems: [CalibrationFileError]

        package init(
            calibration: Calibration?, path: String?, explanation: String, problems: [CalibrationFileError] = []
        ) {
            self.calibration = calibration
            self.path = path
            self.explanation = explanation
            self.problems = problems
        }
    }

    /// What the daemon was asked to do about calibration.
    package enum Choice: Sendable, Hashable {
        /// Search `directories` for the best match for the device.
        case automatic(directories: [String])
        /// Use this file, whatever its `[match]` says.
        case file(String)
        /// Apply none.
        case disabled(reason: String)
    }

    /// The environment variable holding a colon-separated list of folders that replaces the default search path.
    package static let pathVariable = "TILT_CALIBRATION_PATH"

    /// Where the daemon looks, in order: `$TILT_CALIBRATION_PATH` when set, else `/etc/tiltd/calibration.d`, the
    /// user's `$XDG_CONFIG_HOME/tilt/calibration.d` (default `~/.config/tilt/calibration.d`), the bundled
    /// `Calibration/` folder of a clone when one is found above the executable, and the installed bundled files:
    /// `PREFIX/share/tilt/calibration` beside the program, then `tilt/calibration` in each `$XDG_DATA_DIRS` folder
    /// (``InstalledData``).
    package static func defaultDirectories(
        environment: [String: String] = ProcessInfo.processInfo.environment, executablePath: String? = nil
    ) -> [String] {
        if let list = environment[pathVariable], !list.isEmpty {
            return list.split(separator: ":").map(String.init)
        }
        var directories = ["/etc/tiltd/calibration.d", userDirectory(environment: environment)]
        if let bundled = bundledDirectory(executablePath: executablePath) { directories.append(bundled) }
        let installed = InstalledData.directories(
            .calibration, executablePath: executablePath, environment: environment)
        return directories + installed.filter { !directories.contains($0) }
    }

    /// The user's calibration folder: `$XDG_CONFIG_HOME/tilt/calibration.d`, else `~/.config/tilt/calibration.d`.
    package static func userDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            return config + "/tilt/calibration.d"
        }
        let home =
            environment["HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? FileManager.default.homeDirectoryForCurrentUser.path
        return home + "/.config/tilt/calibration.d"
    }

    /// A clone's bundled `Calibration/` folder: found by walking up from the executable's folder (a SwiftPM build in
    /// `.build/debug/` finds the package's). An installed program finds its files through ``InstalledData`` instead.
    package static func bundledDirectory(executablePath: String? = nil) -> String? {
        var folder = URL(fileURLWithPath: executablePath ?? InstalledData.executablePath).deletingLastPathComponent()
        for _ in 0..<5 {
            let path = folder.appendingPathComponent("Calibration").path
            var isDirectory = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory {
                return path
            }
            if folder.path == "/" { break }
            folder.deleteLastPathComponent()
        }
        return nil
    }

    /// Where the kernel publishes the DMI strings that identify the machine.
    package static let defaultDMIRoot = "/sys/class/dmi/id"

    /// Reads DMI `sys_vendor` and `product_name` from `dmiRoot` (normally ``defaultDMIRoot``); a missing file
    /// leaves the value `nil`.
    package static func identity(dmiRoot: String = defaultDMIRoot, name: String?, label: String?)
        -> CalibrationIdentity
    {
        func read(_ file: String) -> String? {
            guard let text = try? String(contentsOfFile: dmiRoot + "/" + file, encoding: .utf8) else { return nil }
            let value = text.trimmingIIOWhitespace()
            return value.isEmpty ? nil : value
        }
        return CalibrationIdentity(
            sysVendor: read("sys_vendor"), productName: read("product_name"), name: name, label: label)
    }

    /// Applies `choice` for the device `identity`: reads the forced file, or searches.
    ///
    /// Call it again to reload (e.g. on SIGHUP); it reads the files afresh.
    package static func resolve(_ choice: Choice, identity: CalibrationIdentity) -> Resolution {
        switch choice {
        case .disabled(let reason):
            return Resolution(calibration: nil, path: nil, explanation: "none: \(reason)")
        case .file(let path):
            do {
                let calibration = try CalibrationFile.read(path: path)
                return Resolution(calibration: calibration, path: path, explanation: "\(path): forced by --calibration")
            } catch {
                return Resolution(
                    calibration: nil, path: nil, explanation: "none: \(error); running uncalibrated", problems: [error])
            }
        case .automatic(let directories):
            return search(directories: directories, identity: identity)
        }
    }

    /// Searches `directories` in order for the best `*.calib` file for `identity`.
    package static func search(directories: [String], identity: CalibrationIdentity) -> Resolution {
        var best: (calibration: Calibration, path: String)?
        var problems: [CalibrationFileError] = []
        for directory in directories {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            for name in names.sorted() where name.hasSuffix("." + CalibrationFile.pathExtension) {
                let path = directory + "/" + name
                let calibration: Calibration
                do {
                    calibration = try CalibrationFile.read(path: path)
                } catch {
                    problems.append(error)
                    continue
                }
                guard calibration.match.disagreement(with: identity) == nil else { continue }
                if let current = best, current.calibration.match.specificity >= calibration.match.specificity {
                    continue
                }
                best = (calibration, path)
            }
        }
        let skipped = problems.isEmpty ? "" : "; skipped \(problems.map(\.description).joined(separator: "; "))"
        guard let best else {
            let looked = directories.isEmpty ? "no folders" : directories.joined(separator: ", ")
            return Resolution(
                calibration: nil, path: nil, explanation: "none: no file matched (looked in \(looked))\(skipped)",
                problems: problems)
        }
        let keys = best.calibration.match.keys.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")
        let why = keys.isEmpty ? "matched (no match keys: any device)" : "matched \(keys)"
        return Resolution(
            calibration: best.calibration, path: best.path, explanation: "\(best.path): \(why)\(skipped)",
            problems: problems)
    }
}
