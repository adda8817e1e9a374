import CEGL

/// An image file as a GL texture for a Shadertoy channel, with mipmaps (the channel's sampler picks the filter).
final class ChannelTexture {
    let texture: GLuint
    let width: Int
    let height: Int

    /// Loads the PNG at `path`; with `vflip` its bottom row is at v = 0, as Shadertoy shows a texture.
    /// - Throws: `RenderError.read` when the file cannot be decoded.
    init(path: String, vflip: Bool) throws(RenderError) {
        let image = try PNGFile.read(path: path)
        width = image.width
        height = image.height
        var pixels = image.rgba
        if vflip {
            // GL's first row is v = 0; the decoded image's first row is its top, so flipping uploads the bottom first.
            let stride = width * 4
            pixels = (0..<height).reversed().flatMap { image.rgba[$0 * stride..<($0 + 1) * stride] }
        }
        var tex: GLuint = 0
        glGenTextures(1, &tex)
        glActiveTexture(GLenum(GL_TEXTURE0))
        glBindTexture(GLenum(GL_TEXTURE_2D), tex)
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 1)
        glTexImage2D(
            GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, GLsizei(width), GLsizei(height), 0, GLenum(GL_RGBA),
            GLenum(GL_UNSIGNED_BYTE), pixels)
        glGenerateMipmap(GLenum(GL_TEXTURE_2D))
        texture = tex
    }

    deinit {
        var tex = texture
        glDeleteTextures(1, &tex)
    }
}
