import CEGL

/// The texture units a pass's samplers are bound to, in one place so that no two kinds of input share a unit.
///
/// GLES 3 promises 16 units to a fragment shader: the layer below (0), a stateful effect's previous frame (1), the
/// user's picture (2), Shadertoy's `iChannel0..3` (3–6), a layer effect's blurred layer (7), then the preset's named
/// textures (8–15).
enum TextureUnit {
    /// The previous pass's output, read by a layer effect.
    static let layer: GLint = 0
    /// A stateful effect's own previous frame.
    static let previous: GLint = 1
    /// The user's picture, fitted to the canvas.
    static let picture: GLint = 2
    /// `iChannel0`; the other channels follow.
    static let firstChannel: GLint = 3
    /// The layer below, blurred (`sampleLayerBlurred`).
    static let blur: GLint = 7
    /// The first named texture; the others follow.
    static let firstNamedTexture: GLint = 8
    /// How many named textures fit after the channels.
    static let namedTextureCount = 16 - Int(firstNamedTexture)

    /// Makes `unit` the active texture unit.
    static func activate(_ unit: GLint) {
        glActiveTexture(GLenum(GL_TEXTURE0) + GLenum(unit))
    }
}
