import FoundationEssentials
import TiltCore

/// Finds presets: `--presets DIR`, then `$TILT_PRESETS`, then a `Presets/` folder found by walking up from the
/// executable and from the working directory (a clone), then the installed presets: `PREFIX/share/tilt/presets`
/// beside the program and `tilt/presets` in each `$XDG_DATA_DIRS` folder (``InstalledData``).
package struct PresetLibrary: Sendable {
    /// The folders searched, in order; the first holding a preset of a given name wins.
    package var searchPaths: [String]
    /// Where a Shadertoy JSON export's textures are looked for after the export's own folder (`--assets DIR`).
    package var assetDirectory: String?

    /// Creates a library over explicit folders.
    package init(searchPaths: [String], assetDirectory: String? = nil) {
        self.searchPaths = searchPaths
        self.assetDirectory = assetDirectory
    }

    /// The standard search order.
    /// - Parameters:
    ///   - explicit: a folder given on the command line, searched first.
    ///   - environment: the process environment (for `TILT_PRESETS` and `XDG_DATA_DIRS`).
    ///   - executablePath: the running program's path, to find the repository's `Presets/` and the installed
    ///     `PREFIX/share/tilt/presets`.
    ///   - workingDirectory: the current folder, also walked up.
    package static func standard(
        explicit: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment,
        executablePath: String = InstalledData.executablePath,
        workingDirectory: String = FileManager.default.currentDirectoryPath
    ) -> PresetLibrary {
        var paths: [String] = []
        if let explicit, !explicit.isEmpty { paths.append(explicit) }
        if let env = environment["TILT_PRESETS"], !env.isEmpty {
            paths += env.split(separator: ":").map(String.init)
        }
        let exe = URL(fileURLWithPath: executablePath).resolvingSymlinksInPath().deletingLastPathComponent()
        for start in [exe, URL(fileURLWithPath: workingDirectory)] {
            if let found = walkUp(from: start), !paths.contains(found) { paths.append(found) }
        }
        let installed = InstalledData.directories(.presets, executablePath: executablePath, environment: environment)
        paths += installed.filter { !paths.contains($0) }
        return PresetLibrary(searchPaths: paths)
    }

    private static func walkUp(from start: URL) -> String? {
        var dir = start.standardizedFileURL
        while true {
            let candidate = dir.appendingPathComponent("Presets")
            var isDir = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDir), isDir {
                return candidate.path
            }
            let parent = dir.deletingLastPathComponent()
            if parent.path == dir.path { return nil }
            dir = parent
        }
    }

    /// Every preset name found, sorted, each mapped to its folder, or for a Shadertoy JSON export `NAME.json` to the
    /// file (first search path wins).
    package func presetDirectories() -> [(name: String, directory: String)] {
        var found: [String: String] = [:]
        for root in searchPaths {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
            for entry in entries.sorted() {
                let path = PathText.join(root, entry)
                let name = entry.hasSuffix(".json") ? String(entry.dropLast(5)) : entry
                guard found[name] == nil else { continue }
                if FileManager.default.fileExists(atPath: PathText.join(path, Preset.fileName))
                    || ShadertoyExport.isExportPath(path)
                {
                    found[name] = path
                }
            }
        }
        return found.sorted { $0.key < $1.key }.map { (name: $0.key, directory: $0.value) }
    }

    /// The names of all presets found.
    package var names: [String] { presetDirectories().map(\.name) }

    /// The folder of the preset `name`, or a path given directly (a folder holding `preset.json`, or a Shadertoy
    /// JSON export).
    /// - Throws: `PresetError.unknownPreset` listing the presets that exist; `unreadable` for a missing `.json`.
    package func directory(of name: String) throws(PresetError) -> String {
        if name.hasSuffix(".json") {
            guard ShadertoyExport.isExportPath(name) else {
                throw .unreadable(name, reason: "no such file (a Shadertoy JSON export was expected there)")
            }
            return name
        }
        if name.contains("/"),
            FileManager.default.fileExists(atPath: PathText.join(name, Preset.fileName))
        {
            return name
        }
        if let hit = presetDirectories().first(where: { $0.name == name }) { return hit.directory }
        if let problem = Self.notAPreset(name) { throw problem }
        throw .unknownPreset(name, available: names, searched: searchPaths)
    }

    /// Why a path that exists is not a preset (a folder without `preset.json`, a shader file), with what one needs;
    /// `nil` when nothing is there (then it is an unknown name).
    static func notAPreset(_ path: String) -> PresetError? {
        var isFolder = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return nil }
        let name = PathText.name(of: path)
        if isFolder {
            return .notAPreset(
                path,
                advice: "the folder has no \(Preset.fileName); a preset folder holds a \(Preset.fileName) naming its "
                    + "GLSL files, at its simplest {\"shadertoy\": \"main.glsl\"} beside main.glsl with a mainImage "
                    + "function (Presets/README.md)")
        }
        return .notAPreset(
            path,
            advice: "a preset is a folder; put \(name) in a folder with a \(Preset.fileName) of "
                + "{\"shadertoy\": \"\(name)\"} (for a file with a mainImage function) and give that folder, or "
                + "give a Shadertoy JSON export (FILE.json); see Presets/README.md")
    }

    /// Loads the preset `name`.
    /// - Throws: `PresetError` for an unknown name or a broken preset file.
    package func load(_ name: String) throws(PresetError) -> Preset {
        try Preset.load(path: try directory(of: name), assets: assetDirectory)
    }
}
