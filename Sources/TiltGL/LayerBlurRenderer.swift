import CEGL
import TiltEffects

/// Draws a ``LayerBlur``: shrinks a pass's output texture, then blurs it separably in a few passes at that size.
final class LayerBlurRenderer {
    private let downsample: GLuint
    private let pass: GLuint
    /// Two targets at the shrunk size: the blur goes back and forth between them.
    private var targets: [RenderTarget] = []

    /// Compiles the two programs.
    init() throws(RenderError) {
        downsample = try ShaderProgram.link(
            vertex: ShaderGenerator.vertexSource, fragment: ShaderGenerator.blurDownsampleSource)
        pass = try ShaderProgram.link(vertex: ShaderGenerator.vertexSource, fragment: ShaderGenerator.blurPassSource)
    }

    deinit {
        glDeleteProgram(downsample)
        glDeleteProgram(pass)
    }

    /// Blurs `source` (a pass's output, padded by `padding` around a `width`×`height` canvas) as `blur` says.
    /// - Returns: the texture holding the blurred canvas, shrunk by `blur.downsample`.
    func draw(
        _ blur: LayerBlur, source: RenderTarget, padding: SIMD2<Double>, width: Int, height: Int
    ) throws(RenderError) -> GLuint {
        let scale = max(1, blur.downsample)
        let w = max(1, (width + scale - 1) / scale)
        let h = max(1, (height + scale - 1) / scale)
        if targets.first?.width != w || targets.first?.height != h {
            targets = [try RenderTarget(width: w, height: h), try RenderTarget(width: w, height: h)]
        }
        glViewport(0, 0, GLsizei(w), GLsizei(h))
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), targets[0].framebuffer)
        glUseProgram(downsample)
        glActiveTexture(GLenum(GL_TEXTURE0))
        glBindTexture(GLenum(GL_TEXTURE_2D), source.texture)
        glUniform1i(glGetUniformLocation(downsample, "tilt_source"), 0)
        glUniform2f(
            glGetUniformLocation(downsample, "tilt_sourceSize"), GLfloat(source.width), GLfloat(source.height))
        glUniform2f(glGetUniformLocation(downsample, "tilt_sourcePadding"), GLfloat(padding.x), GLfloat(padding.y))
        glUniform1f(glGetUniformLocation(downsample, "tilt_scale"), GLfloat(scale))
        glDrawArrays(GLenum(GL_TRIANGLES), 0, 3)

        let kernel = blur.kernel()
        var taps: [GLfloat] = []
        for tap in kernel.taps { taps += [GLfloat(tap.offset), GLfloat(tap.weight)] }
        glUseProgram(pass)
        glUniform1i(glGetUniformLocation(pass, "tilt_source"), 0)
        glUniform1f(glGetUniformLocation(pass, "tilt_centre"), GLfloat(kernel.centre))
        glUniform1i(glGetUniformLocation(pass, "tilt_tapCount"), GLint(kernel.taps.count))
        if !taps.isEmpty { glUniform2fv(glGetUniformLocation(pass, "tilt_taps"), GLsizei(kernel.taps.count), taps) }
        var current = 0
        for _ in 0..<max(1, blur.passes) {
            for direction in [SIMD2<GLfloat>(1, 0), SIMD2<GLfloat>(0, 1)] {
                glBindFramebuffer(GLenum(GL_FRAMEBUFFER), targets[1 - current].framebuffer)
                glBindTexture(GLenum(GL_TEXTURE_2D), targets[current].texture)
                glUniform2f(glGetUniformLocation(pass, "tilt_direction"), direction.x, direction.y)
                glDrawArrays(GLenum(GL_TRIANGLES), 0, 3)
                current = 1 - current
            }
        }
        return targets[current].texture
    }
}
