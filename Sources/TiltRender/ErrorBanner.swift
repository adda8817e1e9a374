import CEGL

/// Marks the window while the preset fails to compile: a red frame around the last good image (the window title
/// carries the file:line message).
enum ErrorBanner {
    /// Draws the frame into the current framebuffer with scissored clears (no shader needed).
    static func draw(width: Int, height: Int) {
        let t = max(4, min(width, height) / 60)
        glEnable(GLenum(GL_SCISSOR_TEST))
        glClearColor(0.85, 0.1, 0.1, 1)
        for (x, y, w, h) in [(0, 0, width, t), (0, height - t, width, t), (0, 0, t, height), (width - t, 0, t, height)] {
            glScissor(GLint(x), GLint(y), GLsizei(w), GLsizei(h))
            glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        }
        glDisable(GLenum(GL_SCISSOR_TEST))
    }
}
