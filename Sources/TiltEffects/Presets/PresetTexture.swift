/// A picture a preset declares under `"textures"`, which effect functions sample by name through an argument of type
/// `texture` (`{ "name": "mask", "type": "texture", "texture": "foilMask" }`, a `sampler2D` parameter).
public struct PresetTexture: Sendable, Hashable {
    /// How texels are filtered (`"filter"`).
    public typealias Filter = TextureFilter
    /// What sampling outside 0…1 gives (`"wrap"`).
    public typealias Wrap = TextureWrap

    /// The name effects use (a GLSL identifier).
    public var name: String
    /// The PNG or JPEG file (absolute), or `nil` for a single opaque white texel (an optional texture not given).
    public var file: String?
    /// The filter.
    public var filter: Filter
    /// The wrap.
    public var wrap: Wrap
    /// Whether the preset's simulation (``PresetSimulation``) fills it every frame, as data: linear bytes, not a
    /// picture (read it with `texture(t, uv)`).
    public var simulated = false

    /// A texture from its parts.
    public init(name: String, file: String?, filter: Filter = .linear, wrap: Wrap = .clamp) {
        self.name = name
        self.file = file
        self.filter = filter
        self.wrap = wrap
    }

    /// The GLSL uniform that holds it.
    public var uniformName: String { "tilt_texture_\(name)" }
}
