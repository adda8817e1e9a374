import ArgumentParser
import TiltRender

/// `--image FILE --fit MODE`: the user's picture as the content the preset's first effect shades.
struct PictureOptions: ParsableArguments {
    @Option(
        help: """
            A PNG or JPEG picture: the content the preset's first effect shades, in place of the preset's own \
            (its "content" effects).
            """)
    var image: String?

    @Option(help: "How the picture fills the frame: contain (all of it, centred), cover (filled, cut), or stretch.")
    var fit: PictureContent.Fit?

    /// Refuses `--fit` without `--image` (a usage mistake).
    func validate() throws {
        if fit != nil && image == nil { throw ValidationError("--fit places the picture of --image; add --image FILE") }
    }

    /// The decoded picture, or `nil` without `--image`.
    /// - Throws: `ImageError` (exit 1) naming the file and what is wrong.
    func load() throws -> PictureContent? {
        guard let image else { return nil }
        return try PictureContent.load(path: image, fit: fit ?? .contain)
    }
}

extension PictureContent.Fit: ExpressibleByArgument {}
