import CEGL
import TiltGL
import TiltImage
import TiltMedia

extension EffectRenderer {
    /// Shows `frame` as the picture: uploads it into the picture's texture, fits it to the canvas again (a new size
    /// moves the picture's rectangle), and makes the static passes that shade it draw again on the next frame.
    /// Does nothing for a renderer with no picture.
    /// - Throws: `ImageError` for a frame larger than the GL holds, `RenderError` when the fitted canvas cannot be
    ///   made.
    package func show(_ frame: VideoFrame) throws {
        guard var current = picture else { return }
        try current.texture.upload(frame, name: current.content.path)
        if current.content.image.width != frame.width || current.content.image.height != frame.height {
            // The size the fit reads; the pixels themselves live in the texture.
            current.content.image = DecodedImage(width: frame.width, height: frame.height, pixels: frame.pixels)
            picture = current
        }
        if targetSize != .zero {
            glDisable(GLenum(GL_BLEND))
            try fitPicture(width: targetSize.x, height: targetSize.y)
        }
        invalidateStaticPasses()
    }
}
