import TiltCore
import TiltImage

/// The user's picture (`--image FILE --fit MODE`): the content the first effect shades, in place of the effects a
/// preset marks `"content": true`. A moving picture (a video file, a camera, a GStreamer pipeline) carries its
/// ``video`` input as well, and its frames replace the picture as they come (``PictureFeed``).
package struct PictureContent: Sendable, Hashable {
    /// How the picture fills the canvas.
    package enum Fit: String, Sendable, Hashable, CaseIterable {
        /// All of it shows, centred, as large as fits; the rest of the canvas is transparent.
        case contain
        /// It fills the canvas, centred; what overhangs is cut off.
        case cover
        /// It fills the canvas exactly, its aspect ratio changed.
        case stretch
    }

    /// The decoded picture.
    package var image: DecodedImage
    /// Its file, for messages.
    package var path: String
    /// How it fills the canvas.
    package var fit: Fit
    /// Where its frames come from when it moves; `nil` for a still picture. ``image`` then holds its first frame
    /// (a file's) or a transparent pixel until the first frame comes (a camera's, a pipeline's).
    package var video: VideoInput?

    /// A picture from its parts.
    package init(image: DecodedImage, path: String, fit: Fit = .contain, video: VideoInput? = nil) {
        self.image = image
        self.path = path
        self.fit = fit
        self.video = video
    }

    /// Whether the picture moves (a video, a camera, a pipeline).
    package var isMoving: Bool { video != nil }

    /// Where the picture lies on a `canvas`-sized layer: origin x, y (top-left) and width, height, in pixels.
    package func rect(canvas: SIMD2<Double>) -> SIMD4<Double> {
        let size = SIMD2(Double(image.width), Double(image.height))
        let scale: SIMD2<Double>
        switch fit {
        case .stretch: return SIMD4(0, 0, canvas.x, canvas.y)
        case .contain: scale = SIMD2(repeating: min(canvas.x / size.x, canvas.y / size.y))
        case .cover: scale = SIMD2(repeating: max(canvas.x / size.x, canvas.y / size.y))
        }
        let fitted = size * scale
        let origin = (canvas - fitted) / 2
        return SIMD4(origin.x, origin.y, fitted.x, fitted.y)
    }
}
