import TiltCore

/// A picture that cannot be used: the file, what is wrong with it, and what to do.
package typealias ImageError = FileError<ImageErrorKind>

/// What is wrong with a picture.
package enum ImageErrorKind: FileErrorKind {
    /// The file cannot be opened or read (missing, a folder, no permission).
    case unreadable
    /// The file is empty.
    case empty
    /// The bytes are not a PNG or JPEG picture.
    case unknownFormat
    /// The file is a PNG or JPEG, but cut short or damaged.
    case damaged
    /// The picture has more pixels than tilt decodes.
    case tooLarge
    /// The picture is larger than the GL can hold and may not be shrunk.
    case overTextureLimit

    package var failure: String { "cannot use image" }
}
