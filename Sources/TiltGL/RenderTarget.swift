import CEGL

/// A framebuffer object with an RGBA colour texture (8-bit, or 16-bit float for Shadertoy buffers).
final class RenderTarget {
    /// The colour texture's format.
    enum Format {
        case rgba8, rgba16f
    }

    let framebuffer: GLuint
    let texture: GLuint
    let width: Int
    let height: Int

    /// Creates a `width`×`height` target.
    init(width: Int, height: Int, format: Format = .rgba8) throws(RenderError) {
        self.width = width
        self.height = height
        var tex: GLuint = 0
        glGenTextures(1, &tex)
        glBindTexture(GLenum(GL_TEXTURE_2D), tex)
        let float = format == .rgba16f
        glTexImage2D(
            GLenum(GL_TEXTURE_2D), 0, float ? GL_RGBA16F : GL_RGBA8, GLsizei(width), GLsizei(height), 0,
            GLenum(GL_RGBA), GLenum(float ? GL_HALF_FLOAT : GL_UNSIGNED_BYTE), nil)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_LINEAR)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_LINEAR)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_S), GL_CLAMP_TO_EDGE)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
        var fbo: GLuint = 0
        glGenFramebuffers(1, &fbo)
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), fbo)
        glFramebufferTexture2D(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D), tex, 0)
        let status = glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER))
        texture = tex
        framebuffer = fbo
        glClearColor(0, 0, 0, 0)
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        guard status == GLenum(GL_FRAMEBUFFER_COMPLETE) else {
            throw .framebuffer(width: width, height: height, status: Int(status))
        }
    }

    deinit {
        var fbo = framebuffer
        var tex = texture
        glDeleteFramebuffers(1, &fbo)
        glDeleteTextures(1, &tex)
    }

    /// Reads the pixels back, top row first, as straight-alpha RGBA8.
    func readPixels() -> [UInt8] {
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        var raw = [UInt8](repeating: 0, count: width * height * 4)
        glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 1)
        glReadPixels(0, 0, GLsizei(width), GLsizei(height), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), &raw)
        // GL rows run bottom-up; images top-down. Colour is premultiplied in GL; PNG wants straight alpha.
        var out = [UInt8](repeating: 0, count: raw.count)
        let stride = width * 4
        for y in 0..<height {
            let src = (height - 1 - y) * stride
            let dst = y * stride
            for x in Swift.stride(from: 0, to: stride, by: 4) {
                let a = raw[src + x + 3]
                out[dst + x + 3] = a
                for c in 0..<3 {
                    let v = raw[src + x + c]
                    out[dst + x + c] = a == 255 || a == 0 ? v : UInt8(min(255, (Int(v) * 255 + Int(a) / 2) / Int(a)))
                }
            }
        }
        return out
    }
}
