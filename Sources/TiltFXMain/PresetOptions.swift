import ArgumentParser
import FoundationEssentials
import TiltCore
import TiltEffects

/// The options that choose where presets come from.
struct PresetOptions: ParsableArguments {
    @Option(name: .customLong("presets"), help: "A folder of presets, searched before the standard places.")
    var directory: String?

    @Option(
        help: ArgumentHelp(
            "A folder of media for Shadertoy JSON exports (textures, cube-map faces, videos, music), searched after "
                + "the export's own folder.",
            valueName: "dir"))
    var assets: String?

    /// The library to search.
    var library: PresetLibrary {
        var library = PresetLibrary.standard(explicit: directory)
        library.assetDirectory = assets
        return library
    }

    /// Refuses a `--presets` or `--assets` folder that is not there (the standard places would otherwise be searched
    /// silently instead). A missing folder is no usage mistake: `TiltFXError` exits 1 without the usage text.
    /// `tiltfx check` reports a missing `--presets` as a finding instead, and refuses only a missing `--assets`.
    func requireDirectory() throws {
        if let directory, !Self.isFolder(directory) {
            throw TiltFXError("--presets \(directory): no such folder; pass a folder that holds preset folders")
        }
        try requireAssets()
    }

    /// Refuses an `--assets` folder that is not there (exit 1, no usage).
    func requireAssets() throws {
        if let assets, !Self.isFolder(assets) {
            throw TiltFXError("--assets \(assets): no such folder; pass the folder that holds the export's textures")
        }
    }

    private static func isFolder(_ path: String) -> Bool {
        var isDirectory = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory
    }
}

/// The one effect a command shows: `--preset`, and where presets are looked for.
struct PresetChoice: ParsableArguments {
    @OptionGroup var presets: PresetOptions

    @Option(help: "The preset's name (see `tiltfx presets`), a preset folder, or a Shadertoy JSON export (FILE.json).")
    var preset: String

    /// The chosen preset, loaded.
    /// The chosen preset, loaded; what loading left out is said on standard error (`note: FILE: …`).
    func load() throws -> Preset {
        let loaded = try presets.library.load(preset)
        for notice in loaded.notices {
            StandardStream.error.write(Data("note: \(loaded.file): \(notice)\n".utf8))
        }
        return loaded
    }
}
