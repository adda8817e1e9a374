import ArgumentParser
import Foundation
import TiltEffects

/// The options that choose where presets come from.
struct PresetOptions: ParsableArguments {
    @Option(name: .customLong("presets"), help: "A folder of presets, searched before the standard places.")
    var directory: String?

    /// The library to search.
    var library: PresetLibrary { PresetLibrary.standard(explicit: directory) }

    /// Refuses a `--presets` folder that is not there (the standard places would otherwise be searched silently
    /// instead). A missing folder is no usage mistake: `TiltFXError` exits 1 without the usage text. `tiltfx check`
    /// reports it as a finding instead.
    func requireDirectory() throws {
        guard let directory else { return }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            throw TiltFXError("--presets \(directory): no such folder; pass a folder that holds preset folders")
        }
    }
}
