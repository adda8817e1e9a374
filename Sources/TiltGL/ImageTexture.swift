import CEGL
import FoundationEssentials
import TiltCore
import TiltEffects
import TiltImage

/// A picture uploaded as a GL texture: premultiplied, sRGB-decoded on sampling, with a filter and a wrap.
///
/// Texels hold colour premultiplied in linear light, encoded as sRGB (`GL_SRGB8_ALPHA8`), so the GL decodes them to
/// linear premultiplied colour before it filters, and a magnified or minified picture blends in linear light. A
/// picture with a side over `GL_MAX_TEXTURE_SIZE` is shrunk to fit (``Options/oversize``) with a notice, or refused
/// naming the limit. Needs a current GL context; the texture is deleted with the object.
package final class ImageTexture {
    /// How texels are filtered.
    package typealias Filter = TextureFilter
    /// What sampling outside 0…1 returns.
    package typealias Wrap = TextureWrap

    /// What to do with a picture larger than the GL holds.
    package enum Oversize: Sendable, Hashable {
        /// Shrink it to fit and tell `notice`.
        case downscale
        /// Throw ``ImageError`` naming the limit.
        case refuse
    }

    /// How a picture is uploaded.
    package struct Options: Sendable, Hashable {
        package var filter: Filter
        package var wrap: Wrap
        /// Whether the bottom row is uploaded first, so that texture coordinate (0, 0) is the picture's bottom-left
        /// corner (GL's and Shadertoy's convention); otherwise (0, 0) is its top-left corner (tilt's positions).
        package var flipVertically: Bool
        /// Whether the bytes are sRGB-encoded colour decoded to linear on sampling; `false` uploads them as plain
        /// `GL_RGBA8` data.
        package var sRGB: Bool
        /// Whether colour is premultiplied by alpha on upload (straight alpha otherwise).
        package var premultiply: Bool
        package var oversize: Oversize

        package init(
            filter: Filter = .linear, wrap: Wrap = .clamp, flipVertically: Bool = false, sRGB: Bool = true,
            premultiply: Bool = true, oversize: Oversize = .downscale
        ) {
            self.filter = filter
            self.wrap = wrap
            self.flipVertically = flipVertically
            self.sRGB = sRGB
            self.premultiply = premultiply
            self.oversize = oversize
        }
    }

    /// The GL texture name.
    package let id: GLuint
    /// The uploaded size (smaller than the picture's when it was shrunk to fit).
    package var width: Int
    /// The uploaded height.
    package var height: Int
    /// The notice given when the picture was shrunk, else `nil`.
    package let notice: String?

    /// Uploads `image` to a new texture.
    /// - Parameters:
    ///   - image: the decoded picture.
    ///   - path: the picture's file, for messages.
    ///   - options: filter, wrap, flip, colour handling, oversize policy.
    ///   - maxTextureSize: the largest side allowed; `nil` asks the current context's `GL_MAX_TEXTURE_SIZE`.
    ///   - notice: told when the picture is shrunk (default: a `notice:` line on standard error).
    /// - Throws: `ImageError` (``ImageError/Problem/overTextureLimit``) when it is too large and may not be shrunk.
    package init(
        image: DecodedImage, path: String, options: Options = Options(), maxTextureSize: Int? = nil,
        notice: (String) -> Void = ImageTexture.printNotice
    ) throws(ImageError) {
        let limit = maxTextureSize ?? GLLimits.current.maxTextureSize
        var picture = image
        var told: String?
        if limit > 0, max(image.width, image.height) > limit {
            guard options.oversize == .downscale else {
                throw ImageError(
                    .overTextureLimit, path: path,
                    reason: "the picture is \(image.width)x\(image.height), larger than this GL's GL_MAX_TEXTURE_SIZE "
                        + "\(limit); scale it to at most \(limit) pixels a side")
            }
            picture = image.downscaled(toFit: limit)
            let text =
                "picture \(path) is \(image.width)x\(image.height), larger than this GL's GL_MAX_TEXTURE_SIZE "
                + "\(limit); drawing it shrunk to \(picture.width)x\(picture.height)"
            notice(text)
            told = text
        }
        var texels = options.premultiply ? picture.premultipliedTexels(sRGB: options.sRGB) : picture.pixels
        if options.flipVertically { texels = picture.flippingRows(of: texels) }
        var name: GLuint = 0
        glGenTextures(1, &name)
        glBindTexture(GLenum(GL_TEXTURE_2D), name)
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 1)
        texels.withUnsafeBytes {
            glTexImage2D(
                GLenum(GL_TEXTURE_2D), 0, options.sRGB ? GL_SRGB8_ALPHA8 : GL_RGBA8, GLsizei(picture.width),
                GLsizei(picture.height), 0, GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), $0.baseAddress)
        }
        if options.filter == .mipmap { glGenerateMipmap(GLenum(GL_TEXTURE_2D)) }
        let filters = options.filter.glFilters
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), filters.min)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), filters.mag)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_S), options.wrap.glWrap)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_T), options.wrap.glWrap)
        glBindTexture(GLenum(GL_TEXTURE_2D), 0)
        id = name
        width = picture.width
        height = picture.height
        self.notice = told
    }

    deinit {
        var name = id
        glDeleteTextures(1, &name)
    }

    /// Writes `notice: TEXT` on standard error.
    package static func printNotice(_ text: String) {
        StandardStream.error.write(Data("notice: \(text)\n".utf8))
    }
}

extension ImageTexture.Options {
    /// A moving picture's texture: the bytes as the decoder gives them (sRGB-encoded, opaque, so premultiplied
    /// already) in plain `GL_RGBA8`, not decoded on sampling: ``ShaderGenerator/videoFitSource`` copies them.
    package static let video = ImageTexture.Options(sRGB: false, premultiply: false)
}
