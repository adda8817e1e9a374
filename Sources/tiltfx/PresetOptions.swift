import ArgumentParser
import TiltEffects

/// The options that choose where presets come from.
struct PresetOptions: ParsableArguments {
    @Option(name: .customLong("presets"), help: "A folder of presets, searched before the standard places.")
    var directory: String?

    /// The library to search.
    var library: PresetLibrary { PresetLibrary.standard(explicit: directory) }
}
