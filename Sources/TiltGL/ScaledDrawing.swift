import CEGL
import TiltCore

/// Draws a surface's frame at a fraction of its pixels: into a texture of the smaller size, then stretched (linear
/// filtering) onto the surface's framebuffer 0 with one blit. At a fraction of 1 it draws straight into
/// framebuffer 0. One per surface, used with its GL context current.
package final class ScaledDrawing {
    private var target: RenderTarget?

    /// Nothing allocated until a frame is drawn below full size.
    package init() {}

    /// The size drawn for a `width`×`height` surface at `scale`: each side rounded, at least one pixel.
    package static func size(width: Int, height: Int, scale: Double) -> SIMD2<Int> {
        guard scale < 1 else { return SIMD2(width, height) }
        return SIMD2(
            max(1, Int((Double(width) * scale).rounded())), max(1, Int((Double(height) * scale).rounded())))
    }

    /// Calls `body` with the framebuffer to draw into and its size (the surface's scaled by `scale`), then
    /// stretches that onto framebuffer 0 at `width`×`height`.
    /// - Parameter timed: whether to measure how long `body`'s drawing takes (it then waits for the GL to finish:
    ///   `glFinish`).
    /// - Returns: the seconds `body`'s drawing took, when `timed`.
    /// - Throws: `body`'s errors, ``RenderError`` when the smaller framebuffer cannot be made.
    @discardableResult
    package func draw(
        width: Int, height: Int, scale: Double, timed: Bool,
        _ body: (_ framebuffer: GLuint, _ width: Int, _ height: Int) throws -> Void
    ) throws -> Double? {
        let drawn = Self.size(width: width, height: height, scale: scale)
        let start = timed ? monotonicSeconds() : 0
        guard drawn != SIMD2(width, height) else {
            target = nil
            try body(0, width, height)
            if timed { glFinish() }
            return timed ? monotonicSeconds() - start : nil
        }
        if target?.width != drawn.x || target?.height != drawn.y {
            target = nil
            target = try RenderTarget(width: drawn.x, height: drawn.y)
        }
        guard let target else { return nil }
        try body(target.framebuffer, drawn.x, drawn.y)
        let seconds: Double?
        if timed {
            glFinish()
            seconds = monotonicSeconds() - start
        } else {
            seconds = nil
        }
        glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), target.framebuffer)
        glBindFramebuffer(GLenum(GL_DRAW_FRAMEBUFFER), 0)
        glBlitFramebuffer(
            0, 0, GLint(drawn.x), GLint(drawn.y), 0, 0, GLint(width), GLint(height),
            GLbitfield(GL_COLOR_BUFFER_BIT), GLenum(GL_LINEAR))
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), 0)
        return seconds
    }
}
