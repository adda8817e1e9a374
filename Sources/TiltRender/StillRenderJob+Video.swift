import TiltGL
import TiltImage

extension StillRenderJob {
    /// Shows the picture's video as it is `time` seconds in (a camera or pipeline: its first frame), so one frame
    /// of a video is as repeatable as the rest of a still render. Does nothing for a still picture.
    /// - Throws: `MediaError` when the source does not play; `ImageError` for a frame over the GL's limit.
    func showVideo(on effects: EffectRenderer) throws {
        guard let feed = PictureFeed(picture: picture, stepped: true) else { return }
        defer { feed.stop() }
        try feed.start()
        _ = try feed.show(at: time, effects)
    }
}
