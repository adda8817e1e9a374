/// How a texture's texels are filtered: the one vocabulary of preset textures (`"filter"`), Shadertoy channels and
/// the renderer's picture textures.
package enum TextureFilter: String, Sendable, Hashable, CaseIterable {
    /// The nearest texel (pixel art, masks with hard edges).
    case nearest
    /// Bilinear between the four nearest texels.
    case linear
    /// Trilinear with mipmaps (a picture drawn much smaller than it is).
    case mipmap
}

/// What sampling a texture outside 0…1 returns (`"wrap"`).
package enum TextureWrap: String, Sendable, Hashable, CaseIterable {
    /// The edge texels repeat.
    case clamp
    /// The picture tiles.
    case `repeat`
    /// The picture tiles, every other copy mirrored.
    case mirror
}
