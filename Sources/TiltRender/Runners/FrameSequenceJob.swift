import FoundationEssentials
import Logging
import TiltCore
import TiltEffects
import TiltGL
import TiltMedia

/// `tiltfx render --frames N --fps F --out DIR`: a numbered PNG sequence, or with ``video`` a video file (WebM, MP4,
/// GIF), driven by a log replay or by the daemon.
package struct FrameSequenceJob: Sendable {
    /// Where motion comes from.
    package enum Motion: Sendable {
        /// Frames played back (a fused sensor log, see `TiltPlayback.LogReplay`); frame i shows the timeline at
        /// i / fps seconds. `name` says where they came from, for the log.
        case replay(MotionTimeline, name: String)
        /// The running daemon; frames are taken in real time at `fps`.
        case daemon(socketPath: String?)
        /// A tilt held still (X, Y radians, as `tiltfx render --tilt`): only the effect's time runs.
        case held(tilt: SIMD2<Double>)
    }

    /// The preset to draw.
    package var preset: Preset
    /// Output width.
    package var width: Int
    /// Output height.
    package var height: Int
    /// Number of frames.
    package var frames: Int
    /// Frames per second.
    package var fps: Double
    /// Output folder (created if missing), or with ``video`` the video file (its folder must exist).
    package var directory: String
    /// When set, the frames are encoded into the video file ``directory`` names instead of written as PNGs.
    package var video: VideoOutput?

    /// How to encode a video.
    package struct VideoOutput: Sendable, Equatable {
        /// The file format (from the file's extension).
        package var container: VideoContainer
        /// The codec; `nil` takes the container's default.
        package var codec: VideoCodec?
        /// Files the render reads (a replay log, a picture), which the video may not replace.
        package var inputs: [String]

        /// Creates a video output.
        package init(container: VideoContainer, codec: VideoCodec? = nil, inputs: [String] = []) {
            self.container = container
            self.codec = codec
            self.inputs = inputs
        }

        /// The encoder's configuration for frames of this size and rate.
        package func configuration(width: Int, height: Int, fps: Double) -> VideoEncoder.Configuration {
            VideoEncoder.Configuration(width: width, height: height, fps: fps, container: container, codec: codec)
        }
    }
    /// Motion source.
    package var motion: Motion
    /// The user's picture the first effect shades, if any.
    package var picture: PictureContent?
    /// What a Shadertoy webcam channel shows; `nil`: a test pattern.
    package var webcam: VideoInput?

    /// Creates a job.
    package init(
        preset: Preset, width: Int, height: Int, frames: Int, fps: Double, directory: String, motion: Motion,
        picture: PictureContent? = nil, video: VideoOutput? = nil, webcam: VideoInput? = nil
    ) {
        self.picture = picture
        self.webcam = webcam
        self.video = video
        self.preset = preset
        self.width = width
        self.height = height
        self.frames = frames
        self.fps = fps
        self.directory = directory
        self.motion = motion
    }

    /// The file name of frame `i`: `frame-00000.png`.
    /// The warning when `directory` still holds frames numbered from `frames` on (an earlier, longer render into the
    /// same folder): they are kept, and they are not part of this sequence. `nil` when there are none.
    package static func staleFrames(in directory: String, after frames: Int) -> String? {
        let next = PathText.join(directory, fileName(frames))
        guard FileManager.default.fileExists(atPath: next) else { return nil }
        var last = frames
        while FileManager.default.fileExists(atPath: PathText.join(directory, fileName(last + 1))) {
            last += 1
        }
        return "\(directory) still holds \(fileName(frames))\(last > frames ? " to \(fileName(last))" : "") from an "
            + "earlier render; they are not part of these \(frames) frames (remove them, or render into an empty folder)"
    }

    package static func fileName(_ i: Int) -> String {
        let n = String(i)
        return "frame-" + String(repeating: "0", count: max(0, 5 - n.count)) + n + ".png"
    }

    /// Renders every frame.
    /// - Parameter progress: told after each frame is written (a PNG) or taken by the encoder (a video); the
    ///   command shows it on stderr.
    /// - Returns: the paths written: the PNGs, or the video.
    /// - Throws: `RenderError` (unwritable folder, no daemon), `MediaError` (no encoder, a full disk while
    ///   encoding: the partial video is removed) or `PresetError`.
    @discardableResult
    package func run(logger: Logger, progress: ProgressMeter? = nil) throws -> [String] {
        guard frames > 0, fps > 0, fps.isFinite else {
            throw RenderError.argument("--frames and --fps must be positive (got \(frames) frames at \(fps) fps)")
        }
        // The encoder (and its temporary file) comes first, so a missing encoder or an unwritable folder fails
        // before the shaders compile or tiltd is waited for.
        let encoder = try video.map {
            try VideoEncoder(
                path: directory, configuration: $0.configuration(width: width, height: height, fps: fps),
                inputs: $0.inputs)
        }
        if video?.container == .gif && fps > 50 {
            let rate = String(printf: "%g", fps)
            let why = "a GIF frame lasts whole hundredths of a second, and browsers show those under 2/100 s as 1/10 s"
            logger.warning("\(why): --fps \(rate) will play slower than asked; give --fps 50 or less")
        }
        if encoder == nil {
            do { try OutputPath.makeFolder(directory) } catch { throw RenderError.output(error) }
        }
        let renderer = try OffscreenRenderer(preset: preset, width: width, height: height, picture: picture)
        // A video file is stepped: frame i shows the video at i / fps, whatever the speed of the machine. A camera
        // or pipeline is live: each frame shows its newest picture.
        let feed = PictureFeed(picture: picture, stepped: true)
        try feed?.start()
        defer { feed?.stop() }
        let sink: any FrameSink =
            encoder.map { VideoSink(renderer, encoder: $0) }
            ?? PNGSequenceSink(renderer, directory: directory)
        let loop = { [webcam] (realTime: Bool) in
            var loop = FrameLoop(
                pacing: .offline(frames: frames, fps: fps, realTime: realTime), logger: logger, progress: progress)
            loop.channelMedia = ChannelMedia(webcam: webcam, stepped: !realTime, logger: logger)
            return loop
        }
        switch motion {
        case .replay(let timeline, let name):
            logger.info(
                "replaying \(name): \(timeline.frames.count) samples, \(String(printf: "%.1f", timeline.duration)) s")
            if let warning = Self.pastTheEnd(frames: frames, fps: fps, timeline: timeline, name: name) {
                logger.warning("\(warning)")
            }
            var replay = ReplayMotion(timeline: timeline)
            try loop(false).run(sink: sink, motion: &replay, picture: feed)
        case .held(let tilt):
            logger.info("rendering \(frames) frames at the tilt \(tilt.x),\(tilt.y)")
            var held = HeldMotion(tilt: tilt)
            try loop(false).run(sink: sink, motion: &held, picture: feed)
        case .daemon(let socketPath):
            let daemon = DaemonMotion(socketPath: socketPath, rate: fps)
            defer { daemon.close() }
            var live = DaemonFeed(daemon: daemon, fallback: .level, logger: logger)
            try live.waitForFirstFrame(timeout: 3)
            logger.info("rendering \(frames) frames from tiltd at \(daemon.socketPath)")
            try loop(true).run(sink: sink, motion: &live, picture: feed)
        }
        if encoder != nil {
            logger.info("wrote \(frames) frames to \(directory)")
            return [directory]
        }
        let written = (sink as? PNGSequenceSink)?.written ?? []
        logger.info("wrote \(written.count) frames to \(directory)")
        if let stale = Self.staleFrames(in: directory, after: frames) {
            logger.warning("\(stale)")
        }
        return written
    }

    /// The warning when `frames` at `fps` run past the end of `timeline` (the frames after it repeat its last pose),
    /// or `nil` when the log covers them all.
    package static func pastTheEnd(frames: Int, fps: Double, timeline: MotionTimeline, name: String) -> String? {
        let covered = Int((timeline.duration * fps).rounded(.down)) + 1
        guard frames > covered else { return nil }
        let seconds = String(printf: "%.1f", Double(frames) / fps)
        let logSeconds = String(printf: "%.1f", timeline.duration)
        return "--frames \(frames) at \(String(printf: "%g", fps)) fps needs \(seconds) s of motion, but \(name) "
            + "covers \(logSeconds) s (\(covered) frames at this --fps): frames \(covered) to \(frames - 1) repeat "
            + "its last pose; give --frames \(covered) or less, or a lower --fps"
    }
}
