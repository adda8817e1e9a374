/// A simulation a preset runs on the CPU every frame (its `"simulation"` key), whose state its effects sample as
/// named textures: the renderer steps it with each frame's inputs and uploads the textures before drawing.
package struct PresetSimulation: Sendable, Hashable {
    /// Which simulation, with its settings.
    package enum Kind: Sendable, Hashable {
        /// Raindrops on misted glass (``RaindropSimulation``): textures `mist`, `drops` and `glass`.
        case raindrops(RaindropSimulation.Configuration)
    }

    /// Which simulation.
    package var kind: Kind

    /// A simulation of `kind`.
    package init(kind: Kind) {
        self.kind = kind
    }

    /// The names of the raindrop simulation's mist-density texture (red: density 0…1, a quarter of the canvas's
    /// resolution by default) and drop map (red, green: offset from the drop's centre; blue: its height; alpha: its
    /// coverage), and the two as one map (``RaindropSimulation/glassMap(drops:)``: the drop's normal, its radius times
    /// its coverage, and the mist that shows).
    package static let raindropTextureNames = (mist: "mist", drops: "drops", glass: "glass")

    /// The textures it exposes, which effects name in arguments of type `texture`.
    package var textureNames: [String] {
        switch kind {
        case .raindrops:
            [Self.raindropTextureNames.mist, Self.raindropTextureNames.drops, Self.raindropTextureNames.glass]
        }
    }

    /// What the texture `name` holds before the simulation has run, as one RGBA texel: raindrops' `mist` fully
    /// misted, `drops` empty glass, `glass` empty and misted (the editor's preview, which does not run the
    /// simulation, binds it).
    package func restingTexel(of name: String) -> [UInt8] {
        switch kind {
        case .raindrops:
            switch name {
            case Self.raindropTextureNames.mist: [255, 255, 255, 255]
            case Self.raindropTextureNames.glass: [128, 128, 0, 255]
            default: [128, 128, 0, 0]
            }
        }
    }

    /// Its name in preset.json (`"kind"`).
    package var kindName: String {
        switch kind {
        case .raindrops: "raindrops"
        }
    }
}
