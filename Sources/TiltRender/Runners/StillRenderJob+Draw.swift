import Logging
import TiltGL

extension StillRenderJob {
    /// Draws the one frame with `renderer` and writes it to ``output``: the frame loop's still pacing, at the tilt
    /// held and ``time``, with the picture's video shown as it is `time` seconds in (a camera or pipeline: its first
    /// frame), so one frame of a video is as repeatable as the rest of a still render.
    /// - Parameter stage: told as each stage of the frame begins.
    /// - Throws: `RenderError` (an unwritable file), `MediaError` when the video does not play, `ImageError` for a
    ///   frame over the GL's limit.
    func draw(with renderer: OffscreenRenderer, stage: @escaping (String) -> Void = { _ in }) throws {
        let feed = PictureFeed(picture: picture, stepped: true)
        try feed?.start()
        defer { feed?.stop() }
        var held = HeldMotion(tilt: tilt)
        let logger = Logger(label: "tiltfx.still")
        var loop = FrameLoop(pacing: .still(time: time), logger: logger)
        loop.channelMedia = ChannelMedia(webcam: webcam, stepped: true, logger: logger)
        defer { loop.channelMedia.close() }
        try loop.run(sink: PNGFileSink(renderer, path: output, stage: stage), motion: &held, picture: feed)
    }
}
