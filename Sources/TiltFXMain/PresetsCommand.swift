import ArgumentParser
import FoundationEssentials
import TiltCore
import TiltEffects

/// `tiltfx presets`: lists presets with their one-line descriptions, then the folders searched.
struct PresetsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "presets",
        abstract: "List the presets found, with one-line descriptions, and the folders searched for them.")

    @OptionGroup var presets: PresetOptions

    func validate() throws {
        try presets.requireDirectory()
    }

    func run() throws {
        let library = presets.library
        let found = library.presetDirectories()
        if found.isEmpty {
            throw TiltFXError(
                "no presets found in \(InstalledData.describe(library.searchPaths)); pass --presets DIR")
        }
        let width = found.map(\.name.count).max() ?? 0
        for (name, dir) in found {
            let description: String
            do { description = try Preset.load(path: dir).description } catch {
                description = "(broken: \(error))"
            }
            print(name.padded(to: width) + "  " + description)
        }
        print(
            "\nsearched, in order (a name found twice comes from the first): "
                + InstalledData.describe(library.searchPaths))
    }
}
