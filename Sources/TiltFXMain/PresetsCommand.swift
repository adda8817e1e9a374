import ArgumentParser
import FoundationEssentials
import TiltCore
import TiltEffects
import TiltGL

/// `tiltfx presets`: lists presets with what each costs to draw here (``PresetCost``) and their one-line
/// descriptions, then the folders searched.
struct PresetsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "presets",
        abstract:
            "List the presets found, what each costs to draw here, their one-line descriptions, and the folders "
            + "searched for them.")

    @OptionGroup var presets: PresetOptions

    @Flag(
        inversion: .prefixedNo,
        help: "Measure what each preset costs to draw on this GL: static when still or animated, and ms per megapixel.")
    var cost = true

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
        // What each costs, measured on this GL (a headless context), unless --no-cost or no GL.
        var context: HeadlessContext?
        var noCost: String?
        if cost {
            do { context = try HeadlessContext() } catch { noCost = "\(error)" }
        }
        let costWidth = context == nil ? 0 : 32
        for (name, dir) in found {
            let description: String
            var price = ""
            do {
                let preset = try Preset.load(path: dir)
                description = preset.description
                if context != nil {
                    do { price = try PresetCost.measure(preset).summary } catch { price = "(does not compile)" }
                }
            } catch {
                description = "(broken: \(error))"
            }
            print(
                name.padded(to: width) + "  " + price.padded(to: costWidth) + (costWidth > 0 ? "  " : "") + description)
        }
        if let context {
            print(
                "\ncost: when it draws, and milliseconds of GL work per megapixel of a moving frame on "
                    + "\(context.rendererName) (1920x1080 is 2.1 MP; --scale 0.5 draws a quarter of it)")
        } else if let noCost {
            print("\ncost: not measured (\(noCost))")
        }
        print(
            "\nsearched, in order (a name found twice comes from the first): "
                + InstalledData.describe(library.searchPaths))
    }
}
