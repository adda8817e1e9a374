import CEGL
import TiltCore
import TiltEffects
import TiltImage

/// Cube maps for Shadertoy channels: one made of six image files, or the target Cube A renders into.
///
/// Faces are in GL's order (+X, −X, +Y, −Y, +Z, −Z), and a face's first row in memory is its t = 0 edge, so a
/// direction reads the texel GL's cube-map table gives it. Cube A draws each face with the ray of that same texel
/// (``faceMatrices``), so what it writes in a direction is what a `samplerCube` reads back in that direction.
final class ShadertoyCube {
    /// The `GL_TEXTURE_CUBE_MAP` texture.
    let texture: GLuint
    /// A face's width and height in texels.
    let size: Int
    /// A framebuffer to draw into the faces (Cube A only).
    private var framebuffer: GLuint = 0

    /// A face that cannot make a cube map: its file and why.
    struct FaceError: Error {
        let path: String
        let reason: String
    }

    /// Shadertoy's Cube A: 1024 × 1024 texels a face.
    static let passSize = 1024

    /// A cube map from six pictures (+X, −X, +Y, −Y, +Z, −Z), each square and of one size, with mipmaps.
    /// - Parameter vflip: whether each face's bottom row is stored first.
    /// - Throws: ``FaceError`` naming a face that does not decode, is not square, or differs in size.
    init(faces paths: [String], vflip: Bool) throws(FaceError) {
        precondition(paths.count == 6, "a cube map has six faces")
        var images: [DecodedImage] = []
        for path in paths {
            let image: DecodedImage
            do { image = try ImageDecoder.load(path: path) } catch {
                throw FaceError(path: path, reason: "cube map face: \(error.reason)")
            }
            guard image.width == image.height else {
                throw FaceError(
                    path: path, reason: "cube map face is \(image.width)×\(image.height); cube faces are square")
            }
            if let first = images.first, first.width != image.width {
                throw FaceError(
                    path: path,
                    reason:
                        "cube map face is \(image.width)×\(image.height), the first face \(first.width)×\(first.width); "
                        + "all six faces have one size")
            }
            images.append(image)
        }
        size = images[0].width
        var made: GLuint = 0
        glGenTextures(1, &made)
        texture = made
        glActiveTexture(GLenum(GL_TEXTURE0))
        glBindTexture(GLenum(GL_TEXTURE_CUBE_MAP), texture)
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 1)
        for (face, image) in images.enumerated() {
            let rows =
                vflip ? LiveChannelTexture.rowsReversed(image.pixels, stride: size * 4, rows: size) : image.pixels
            glTexImage2D(
                GLenum(GL_TEXTURE_CUBE_MAP_POSITIVE_X) + GLenum(face), 0, GL_RGBA8, GLsizei(size), GLsizei(size), 0,
                GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), rows)
        }
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 4)
        glGenerateMipmap(GLenum(GL_TEXTURE_CUBE_MAP))
        glBindTexture(GLenum(GL_TEXTURE_CUBE_MAP), 0)
    }

    /// An empty cube map of `size` texels a face that a pass draws into (cleared to transparent black).
    init(renderTarget size: Int, format: RenderTarget.Format) throws(RenderError) {
        self.size = size
        var made: GLuint = 0
        glGenTextures(1, &made)
        texture = made
        glActiveTexture(GLenum(GL_TEXTURE0))
        glBindTexture(GLenum(GL_TEXTURE_CUBE_MAP), texture)
        let float = format == .rgba16f
        for face in 0..<6 {
            glTexImage2D(
                GLenum(GL_TEXTURE_CUBE_MAP_POSITIVE_X) + GLenum(face), 0, float ? GL_RGBA16F : GL_RGBA8,
                GLsizei(size), GLsizei(size), 0, GLenum(GL_RGBA), GLenum(float ? GL_HALF_FLOAT : GL_UNSIGNED_BYTE), nil)
        }
        glTexParameteri(GLenum(GL_TEXTURE_CUBE_MAP), GLenum(GL_TEXTURE_MIN_FILTER), GL_LINEAR)
        glTexParameteri(GLenum(GL_TEXTURE_CUBE_MAP), GLenum(GL_TEXTURE_MAG_FILTER), GL_LINEAR)
        glBindTexture(GLenum(GL_TEXTURE_CUBE_MAP), 0)
        glGenFramebuffers(1, &framebuffer)
        for face in 0..<6 {
            try bindFace(face)
            glClearColor(0, 0, 0, 0)
            glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        }
    }

    deinit {
        var texture = self.texture
        glDeleteTextures(1, &texture)
        if framebuffer != 0 { glDeleteFramebuffers(1, &framebuffer) }
    }

    /// Binds the framebuffer drawing into `face` (0–5) with the viewport over it.
    func bindFace(_ face: Int) throws(RenderError) {
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        glFramebufferTexture2D(
            GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_CUBE_MAP_POSITIVE_X) + GLenum(face),
            texture, 0)
        let status = glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER))
        guard status == GLenum(GL_FRAMEBUFFER_COMPLETE) else {
            throw .framebuffer(width: size, height: size, status: Int(status))
        }
        glViewport(0, 0, GLsizei(size), GLsizei(size))
    }

    /// For each face, the matrix (column-major, for `tilt_cubeFace`) that takes (s, t, 1), s and t in −1…1 across the
    /// face from its first texel, to the direction GL's cube-map table reads that texel in.
    static let faceMatrices: [[GLfloat]] = [
        [0, 0, -1, 0, -1, 0, 1, 0, 0],  // +X: (1, −t, −s)
        [0, 0, 1, 0, -1, 0, -1, 0, 0],  // −X: (−1, −t, s)
        [1, 0, 0, 0, 0, 1, 0, 1, 0],  // +Y: (s, 1, t)
        [1, 0, 0, 0, 0, -1, 0, -1, 0],  // −Y: (s, −1, −t)
        [1, 0, 0, 0, -1, 0, 0, 0, 1],  // +Z: (s, −t, 1)
        [-1, 0, 0, 0, -1, 0, 0, 0, -1],  // −Z: (−s, −t, −1)
    ]
}

/// The pixels of a channel that changes by itself (a video frame, the camera, the sound texture), handed to the
/// renderer by whoever plays it (``EffectRenderer/showChannel(_:_:)``): TiltGL does not play media.
package struct ChannelPixels: Sendable, Hashable {
    /// How the bytes are laid out.
    package enum Format: Sendable, Hashable {
        /// Four bytes a texel, top row first (a video frame).
        case rgba8
        /// One byte a texel, row 0 first (the sound texture: spectrum in row 0, waveform in row 1).
        case r8
    }

    /// Width in texels.
    package var width: Int
    /// Height in texels.
    package var height: Int
    /// The layout.
    package var format: Format
    /// `width × height` texels.
    package var bytes: [UInt8]
    /// Seconds into the channel's media (its `iChannelTime`).
    package var time: Double

    /// Shadertoy's sound texture (512 × 2) of silence: no spectrum in row 0, the waveform at its middle in row 1.
    package static let silence = ChannelPixels(
        width: 512, height: 2, format: .r8,
        bytes: [UInt8](repeating: 0, count: 512) + [UInt8](repeating: 128, count: 512), time: 0)

    /// Pixels of a channel.
    package init(width: Int, height: Int, format: Format, bytes: [UInt8], time: Double) {
        precondition(bytes.count == width * height * (format == .rgba8 ? 4 : 1), "the bytes do not fill the size")
        self.width = width
        self.height = height
        self.format = format
        self.bytes = bytes
        self.time = time
    }
}

/// A texture that a channel's newest pixels are uploaded into.
final class LiveChannelTexture {
    private(set) var texture: GLuint = 0
    private(set) var width = 0
    private(set) var height = 0
    /// The last frame's `iChannelTime`.
    private(set) var time = 0.0
    /// Whether the texture's rows are flipped as they are uploaded (the channel's `vflip`).
    let vflip: Bool
    private var shownFormat = ChannelPixels.Format.rgba8

    init(vflip: Bool) {
        self.vflip = vflip
        glGenTextures(1, &texture)
        // Black until the first pixels come (a sound channel: silence comes at once).
        show(ChannelPixels(width: 1, height: 1, format: .rgba8, bytes: [0, 0, 0, 255], time: 0))
    }

    deinit {
        glDeleteTextures(1, &texture)
    }

    /// Uploads `pixels`, in place when the size and format are the same as before.
    func show(_ pixels: ChannelPixels) {
        glActiveTexture(GLenum(GL_TEXTURE0))
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 1)
        let rgba = pixels.format == .rgba8
        let stride = pixels.width * (rgba ? 4 : 1)
        let format = GLenum(rgba ? GL_RGBA : GL_RED)
        if pixels.width != width || pixels.height != height || pixels.format != shownFormat {
            glTexImage2D(
                GLenum(GL_TEXTURE_2D), 0, rgba ? GL_RGBA8 : GL_R8, GLsizei(pixels.width), GLsizei(pixels.height), 0,
                format, GLenum(GL_UNSIGNED_BYTE), nil)
            (width, height, shownFormat) = (pixels.width, pixels.height, pixels.format)
        }
        pixels.bytes.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            if vflip {
                // A picture's first row is its top; a flipped channel shows it at v = 1, so it goes in last: row by
                // row, with no flipped copy of the frame made first.
                for y in 0..<height {
                    glTexSubImage2D(
                        GLenum(GL_TEXTURE_2D), 0, 0, GLint(height - 1 - y), GLsizei(width), 1, format,
                        GLenum(GL_UNSIGNED_BYTE), base + y * stride)
                }
            } else {
                glTexSubImage2D(
                    GLenum(GL_TEXTURE_2D), 0, 0, 0, GLsizei(width), GLsizei(height), format, GLenum(GL_UNSIGNED_BYTE),
                    base)
            }
        }
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 4)
        glBindTexture(GLenum(GL_TEXTURE_2D), 0)
        time = pixels.time
    }

    /// `bytes` with its `rows` rows of `stride` bytes in the opposite order.
    static func rowsReversed(_ bytes: [UInt8], stride: Int, rows: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: bytes.count)
        bytes.withUnsafeBytes { from in
            out.withUnsafeMutableBytes { to in
                for y in 0..<rows {
                    let source = from.baseAddress! + (rows - 1 - y) * stride
                    (to.baseAddress! + y * stride).copyMemory(from: source, byteCount: stride)
                }
            }
        }
        return out
    }
}
