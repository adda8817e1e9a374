import CEGL

/// How large a render target the current GL context can make.
///
/// Asked once a context is current, so that a `--size` the GL cannot hold is refused up front with the real limit,
/// instead of failing later as an incomplete framebuffer.
package struct GLLimits: Sendable, Equatable {
    /// `GL_MAX_TEXTURE_SIZE`: the largest side of a texture (layer passes render into textures).
    package var maxTextureSize: Int
    /// `GL_MAX_RENDERBUFFER_SIZE`: the largest side of a renderbuffer (a window's back buffer is one).
    package var maxRenderbufferSize: Int
    /// `GL_MAX_VIEWPORT_DIMS`: the largest viewport a draw can cover.
    package var maxViewport: SIMD2<Int>

    /// Limits given by hand (for tests).
    package init(maxTextureSize: Int, maxRenderbufferSize: Int, maxViewport: SIMD2<Int>) {
        self.maxTextureSize = maxTextureSize
        self.maxRenderbufferSize = maxRenderbufferSize
        self.maxViewport = maxViewport
    }

    /// The limits of the context current on this thread.
    package static var current: GLLimits {
        var texture: GLint = 0
        var renderbuffer: GLint = 0
        var viewport: [GLint] = [0, 0]
        glGetIntegerv(GLenum(GL_MAX_TEXTURE_SIZE), &texture)
        glGetIntegerv(GLenum(GL_MAX_RENDERBUFFER_SIZE), &renderbuffer)
        glGetIntegerv(GLenum(GL_MAX_VIEWPORT_DIMS), &viewport)
        return GLLimits(
            maxTextureSize: Int(texture), maxRenderbufferSize: Int(renderbuffer),
            maxViewport: SIMD2(Int(viewport[0]), Int(viewport[1])))
    }

    /// The largest width and height a render target may have: the smallest of the limits (a limit GL reports as 0
    /// is unknown and ignored).
    package var maxTarget: SIMD2<Int> {
        let sides = [maxTextureSize, maxRenderbufferSize].filter { $0 > 0 }
        let side = sides.min() ?? Int.max
        return SIMD2(
            min(side, maxViewport.x > 0 ? maxViewport.x : Int.max),
            min(side, maxViewport.y > 0 ? maxViewport.y : Int.max))
    }

    /// The limits for a message: `GL_MAX_TEXTURE_SIZE 16384, GL_MAX_RENDERBUFFER_SIZE 16384`.
    var summary: String {
        "GL_MAX_TEXTURE_SIZE \(maxTextureSize), GL_MAX_RENDERBUFFER_SIZE \(maxRenderbufferSize), "
            + "GL_MAX_VIEWPORT_DIMS \(maxViewport.x)x\(maxViewport.y)"
    }
}
