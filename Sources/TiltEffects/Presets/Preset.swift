import FoundationEssentials
import TiltCore

/// A named effect stack loaded from a preset folder: `preset.json` plus its GLSL files.
///
/// The preset file format (JSON, human-editable):
/// ```json
/// {
///   "description": "one line shown by `tiltfx presets`",
///   "shadertoy": "main.glsl",                       // optional: a Shadertoy `mainImage` drawing the base content
///   "effects": [
///     { "kind": "color", "function": "card", "file": "card.glsl",
///       "arguments": [ { "name": "tilt", "type": "vec2", "bind": "tilt" },
///                      { "name": "tint", "type": "color", "value": "#ffd080" } ] },
///     { "kind": "layer", "function": "glow", "file": "glow.glsl", "maxSampleOffset": [6, 6] }
///   ]
/// }
/// ```
/// `bind` is one of `tilt`, `gravity`, `euler`, `rotationRate`, `attitude`, `time`, `size`, `pointer`; `value` is a
/// number, an array of numbers, or a `#rrggbb[aa]` colour. Without a Shadertoy base, the first effect shades a
/// transparent layer.
package struct Preset: Sendable, Hashable {
    /// The preset's name (its folder's name).
    package var name: String
    /// A one-line description.
    package var description: String
    /// The folder holding the preset (absolute).
    package var directory: String
    /// The preset file's path.
    package var file: String
    /// An optional Shadertoy source (absolute path) whose `mainImage` draws the base content.
    package var shadertoy: String?
    /// The effects, applied in order.
    package var effects: [Effect]
    /// The preset's power policy (its `power` key), if it sets one; `nil` uses ``PowerPolicy/automatic``.
    package var power: PowerPolicy?
    /// The least fraction of an output's pixels it may be drawn at (its `minScale` key: fine lines or text that a
    /// coarser picture would blur); ``scaleRange``'s lower end when it sets none.
    package var minScale = Preset.scaleRange.lowerBound
    /// The render scales there are (`tiltfx wallpaper --scale`): a quarter of the pixels each way to all of them.
    package static let scaleRange = 0.25...1.0
    /// The named textures (its `textures` key), sorted by name, then those of its simulation.
    package var textures: [PresetTexture] = []
    /// The simulation stepped every frame whose state its effects sample as textures (its `simulation` key).
    package var simulation: PresetSimulation?
    /// The whole Shadertoy program (Common, buffers, channels) when the preset has more than a plain `mainImage`
    /// file: the object form of `shadertoy`, or a Shadertoy JSON export. ``shadertoy`` then names its Image code.
    package var shadertoyProgram: ShadertoyProgram?
    /// The folder searched for a JSON export's textures after the export's own folder (`--assets DIR`).
    package var assetDirectory: String?
    /// What loading left out and the user should hear of, each a sentence (a Shadertoy export's Sound pass, which is
    /// not played): `tiltfx` prints them as `note:` lines, `tiltfx check` as notes.
    package var notices: [String] = []

    /// Creates a preset from its parts.
    package init(
        name: String, description: String, directory: String, file: String, shadertoy: String? = nil,
        effects: [Effect]
    ) {
        self.name = name
        self.description = description
        self.directory = directory
        self.file = file
        self.shadertoy = shadertoy
        self.effects = effects
    }

    /// The name of the preset file inside a preset folder.
    package static let fileName = "preset.json"

    /// Every file the preset reads (preset file, Shadertoy source, effect sources, textures), for watching.
    package var files: [String] {
        var seen: [String] = [file]
        let toy = shadertoyProgram?.files ?? [shadertoy].compactMap { $0 }
        for path in toy + effects.map(\.file) + textures.compactMap(\.file) where !seen.contains(path) {
            seen.append(path)
        }
        return seen
    }

    /// Loads the preset in `directory`.
    /// - Parameter directory: a folder holding `preset.json`.
    /// - Returns: the preset, with every file path made absolute.
    /// - Throws: `PresetError` naming the file and field at fault.
    package static func load(directory: String) throws(PresetError) -> Preset {
        let dir = URL(fileURLWithPath: directory).standardizedFileURL
        let file = dir.appendingPathComponent(fileName).path
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            throw .unreadable(file, reason: errorReason(error))
        }
        let raw = try PresetFile.decode(data, file: file)
        return try raw.resolve(name: dir.lastPathComponent, directory: dir, file: file)
    }

    /// Loads the preset at `path`: a preset folder, or a Shadertoy JSON export (a `.json` file).
    /// - Parameter assets: where a JSON export's textures are looked for after the export's own folder.
    package static func load(path: String, assets: String? = nil) throws(PresetError) -> Preset {
        if ShadertoyExport.isExportPath(path) { return try ShadertoyExport.load(file: path, assets: assets) }
        return try load(directory: path)
    }

    /// The preset loaded again from where it came from (for hot reload).
    package func reloaded() throws(PresetError) -> Preset {
        try Preset.load(path: file.hasSuffix("/" + Self.fileName) ? directory : file, assets: assetDirectory)
    }
}
