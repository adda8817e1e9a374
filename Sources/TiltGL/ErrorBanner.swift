import CEGL

/// Shows a compile error on screen over the last good frame: a red frame around the window and the message, with
/// its file:line, in a panel at the top (drawn with `BitmapFont`).
///
/// Uses the current GL context; create and draw on the thread that owns it.
package final class ErrorBanner {
    private var program: GLuint = 0
    private var texture: GLuint = 0
    private var vertexArray: GLuint = 0
    private var message: [String] = []
    private var panelSize = SIMD2<Int>(0, 0)
    private var uploadedFor: (lines: [String], width: Int)?

    /// Compiles the tiny textured-panel shader.
    package init() throws(RenderError) {
        let vs = """
            #version 300 es
            void main() {
                vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
                gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
            }
            """
        let fs = """
            #version 300 es
            precision highp float;
            uniform sampler2D panel;
            uniform vec2 origin;
            uniform float panelHeight;
            out vec4 color;
            void main() {
                ivec2 p = ivec2(gl_FragCoord.xy - origin);
                color = texelFetch(panel, ivec2(p.x, int(panelHeight) - 1 - p.y), 0);
            }
            """
        program = try ShaderProgram.link(vertex: vs, fragment: fs)
        glGenTextures(1, &texture)
        glGenVertexArrays(1, &vertexArray)
    }

    deinit {
        glDeleteProgram(program)
        glDeleteTextures(1, &texture)
        glDeleteVertexArrays(1, &vertexArray)
    }

    /// Sets the message (the first lines of an error) to show.
    package func show(_ error: String) {
        message = Array(error.split(separator: "\n").prefix(6).map(String.init))
    }

    /// Draws the frame and the message over the current framebuffer of `width`×`height`.
    package func draw(width: Int, height: Int) {
        let t = max(4, min(width, height) / 60)
        glEnable(GLenum(GL_SCISSOR_TEST))
        glClearColor(0.85, 0.1, 0.1, 1)
        for (x, y, w, h) in [(0, 0, width, t), (0, height - t, width, t), (0, 0, t, height), (width - t, 0, t, height)]
        {
            glScissor(GLint(x), GLint(y), GLsizei(w), GLsizei(h))
            glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        }
        glDisable(GLenum(GL_SCISSOR_TEST))
        guard !message.isEmpty, width > 2 * t, height > 2 * t else { return }
        let panelWidth = width - 2 * t
        if uploadedFor?.lines != message || uploadedFor?.width != panelWidth {
            let scale = width >= 1200 ? 2 : 1
            let image = BitmapFont.rasterize(message, scale: scale, maxWidth: panelWidth)
            glBindTexture(GLenum(GL_TEXTURE_2D), texture)
            glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 1)
            glTexImage2D(
                GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, GLsizei(image.width), GLsizei(image.height), 0, GLenum(GL_RGBA),
                GLenum(GL_UNSIGNED_BYTE), image.rgba)
            glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
            glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
            panelSize = SIMD2(image.width, min(image.height, height - 2 * t))
            uploadedFor = (message, panelWidth)
        }
        let originY = height - t - panelSize.y
        glViewport(GLint(t), GLint(originY), GLsizei(panelSize.x), GLsizei(panelSize.y))
        glUseProgram(program)
        glActiveTexture(GLenum(GL_TEXTURE0))
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        glUniform1i(glGetUniformLocation(program, "panel"), 0)
        glUniform2f(glGetUniformLocation(program, "origin"), GLfloat(t), GLfloat(originY))
        glUniform1f(glGetUniformLocation(program, "panelHeight"), GLfloat(panelSize.y))
        glEnable(GLenum(GL_BLEND))
        glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
        glBindVertexArray(vertexArray)
        glDrawArrays(GLenum(GL_TRIANGLES), 0, 3)
        glDisable(GLenum(GL_BLEND))
        glViewport(0, 0, GLsizei(width), GLsizei(height))
    }
}
