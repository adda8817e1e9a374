import CEGL
import TiltCore
import TiltGL
import TiltImage
import TiltMedia

extension ImageTexture {
    /// Replaces the texels with a video frame: `glTexSubImage2D` into the same texture while the size stays, a new
    /// `glTexImage2D` (`GL_RGBA8`, as ``Options/video``) when it changes. The bytes go up as the decoder gave them.
    /// Needs the texture's GL context current.
    /// - Throws: `ImageError` when the frame is larger than the GL holds (``ImageError/Problem/overTextureLimit``).
    func upload(_ frame: VideoFrame, name: String, maxTextureSize: Int? = nil) throws(ImageError) {
        let limit = maxTextureSize ?? GLLimits.current.maxTextureSize
        if limit > 0, max(frame.width, frame.height) > limit {
            throw ImageError(
                .overTextureLimit, path: name,
                reason: "its frames are \(frame.width)x\(frame.height), larger than this GL's GL_MAX_TEXTURE_SIZE "
                    + "\(limit); scale them down (e.g. `videoscale ! video/x-raw,width=\(limit)` in --source)")
        }
        glBindTexture(GLenum(GL_TEXTURE_2D), id)
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 1)
        glPixelStorei(GLenum(GL_UNPACK_ROW_LENGTH), GLint(frame.stride / 4))
        let sameSize = frame.width == width && frame.height == height
        _ = frame.withPixels { bytes in
            if sameSize {
                glTexSubImage2D(
                    GLenum(GL_TEXTURE_2D), 0, 0, 0, GLsizei(frame.width), GLsizei(frame.height), GLenum(GL_RGBA),
                    GLenum(GL_UNSIGNED_BYTE), bytes.baseAddress)
            } else {
                glTexImage2D(
                    GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, GLsizei(frame.width), GLsizei(frame.height), 0,
                    GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), bytes.baseAddress)
            }
        }
        glPixelStorei(GLenum(GL_UNPACK_ROW_LENGTH), 0)
        glBindTexture(GLenum(GL_TEXTURE_2D), 0)
        width = frame.width
        height = frame.height
    }
}
