import ArgumentParser
import Foundation
import TiltEffects

/// `tiltfx presets`: lists presets with their one-line descriptions.
struct PresetsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "presets", abstract: "List the presets found, with one-line descriptions.")

    @OptionGroup var presets: PresetOptions

    func validate() throws {
        try presets.requireDirectory()
    }

    func run() throws {
        let library = presets.library
        let found = library.presetDirectories()
        if found.isEmpty {
            throw TiltFXError(
                "no presets found in \(library.searchPaths.joined(separator: ", ")); pass --presets DIR")
        }
        let width = found.map(\.name.count).max() ?? 0
        for (name, dir) in found {
            let description: String
            do { description = try Preset.load(path: dir).description } catch {
                description = "(broken: \(error))"
            }
            print(name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + description)
        }
    }
}
