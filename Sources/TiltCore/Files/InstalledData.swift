import FoundationEssentials

/// Where an installed tilt keeps its data (presets, bundled calibration): `PREFIX/share/tilt/KIND` beside the
/// running program, then `tilt/KIND` in each folder of `$XDG_DATA_DIRS`.
///
/// The Debian package puts the programs in `/usr/bin` and the data in `/usr/share/tilt`; `scripts/install --prefix
/// /usr/local` puts them in `/usr/local/bin` and `/usr/local/share/tilt`. Either is found from the program's own
/// path, so an install under any prefix works without configuration; `$XDG_DATA_DIRS` (default
/// `/usr/local/share:/usr/share`, as the XDG Base Directory specification says) covers data installed elsewhere.
/// A clone's `Presets/` and `Calibration/` folders are found by their own loaders, before these.
public enum InstalledData {
    /// The data kinds tilt installs, each a folder under `PREFIX/share/tilt/`.
    public enum Kind: String, Sendable, CaseIterable {
        case presets
        case calibration
        /// The pages `tiltfx serve` serves (`Web/` in a clone).
        case web
    }

    /// The environment variable listing data folders (XDG Base Directory specification).
    public static let dataDirectoriesVariable = "XDG_DATA_DIRS"

    /// `$XDG_DATA_DIRS` when it is unset or empty.
    public static let defaultDataDirectories = ["/usr/local/share", "/usr/share"]

    /// The running program's path: `/proc/self/exe` (right however the program was started, through `$PATH` or a
    /// symbolic link), else `argv[0]`.
    public static var executablePath: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments.first
            ?? ""
    }

    /// The folders to search for installed data of `kind`, in order, each once.
    ///
    /// - Parameters:
    ///   - kind: the data wanted.
    ///   - executablePath: the program's path; `PATH/../../share/tilt/KIND` comes first. Defaults to
    ///     ``executablePath``.
    ///   - environment: the process environment, for `$XDG_DATA_DIRS` (relative entries are ignored, as the
    ///     specification says).
    /// - Returns: absolute, normalised folder paths, whether or not they exist.
    public static func directories(
        _ kind: Kind, executablePath: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> [String] {
        var folders: [String] = []
        func add(_ share: String) {
            let path = URL(fileURLWithPath: share).appendingPathComponent("tilt").appendingPathComponent(kind.rawValue)
                .standardizedFileURL.path
            if !folders.contains(path) { folders.append(path) }
        }
        let program = executablePath ?? Self.executablePath
        if program.hasPrefix("/") {
            let prefix = URL(fileURLWithPath: program).standardizedFileURL.deletingLastPathComponent()
                .deletingLastPathComponent()
            add(prefix.appendingPathComponent("share").path)
        }
        let listed = (environment[dataDirectoriesVariable] ?? "").split(separator: ":").map(String.init)
            .filter { $0.hasPrefix("/") }
        for share in listed.isEmpty ? defaultDataDirectories : listed { add(share) }
        return folders
    }

    /// The folders for people, in order, `:`-free: `A, B (not there), C`.
    public static func describe(_ folders: [String]) -> String {
        guard !folders.isEmpty else { return "no folders" }
        return folders.map { folder in
            var isDirectory = false
            let present =
                FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) && isDirectory
            return present ? folder : folder + " (not there)"
        }.joined(separator: ", ")
    }
}
