/// A picture a preset declares under `"textures"`, which effect functions sample by name through an argument of type
/// `texture` (`{ "name": "mask", "type": "texture", "texture": "foilMask" }`, a `sampler2D` parameter).
package struct PresetTexture: Sendable, Hashable {
    /// How texels are filtered (`"filter"`).
    package typealias Filter = TextureFilter
    /// What sampling outside 0…1 gives (`"wrap"`).
    package typealias Wrap = TextureWrap

    /// The name effects use (a GLSL identifier).
    package var name: String
    /// The PNG or JPEG file (absolute), or `nil` for a single opaque white texel (an optional texture not given).
    package var file: String?
    /// The filter.
    package var filter: Filter
    /// The wrap.
    package var wrap: Wrap
    /// Whether the preset's simulation (``PresetSimulation``) fills it every frame, as data: linear bytes, not a
    /// picture (read it with `texture(t, uv)`).
    package var simulated = false

    /// A texture from its parts.
    package init(name: String, file: String?, filter: Filter = .linear, wrap: Wrap = .clamp) {
        self.name = name
        self.file = file
        self.filter = filter
        self.wrap = wrap
    }

    /// The GLSL uniform that holds it.
    package var uniformName: String { "tilt_texture_\(name)" }
}
