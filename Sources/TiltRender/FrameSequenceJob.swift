import Foundation
import Logging
import TiltCore
import TiltEffects
import TiltGL
import TiltMedia

/// `tiltfx render --frames N --fps F --out DIR`: a numbered PNG sequence, or with ``video`` a video file (WebM, MP4,
/// GIF), driven by a log replay or by the daemon.
public struct FrameSequenceJob: Sendable {
    /// Where motion comes from.
    public enum Motion: Sendable {
        /// Frames played back (a fused sensor log, see `TiltPlayback.LogReplay`); frame i shows the timeline at
        /// i / fps seconds. `name` says where they came from, for the log.
        case replay(MotionTimeline, name: String)
        /// The running daemon; frames are taken in real time at `fps`.
        case daemon(socketPath: String?)
        /// A tilt held still (X, Y radians, as `tiltfx render --tilt`): only the effect's time runs.
        case held(tilt: SIMD2<Double>)
    }

    /// The preset to draw.
    public var preset: Preset
    /// Output width.
    public var width: Int
    /// Output height.
    public var height: Int
    /// Number of frames.
    public var frames: Int
    /// Frames per second.
    public var fps: Double
    /// Output folder (created if missing), or with ``video`` the video file (its folder must exist).
    public var directory: String
    /// When set, the frames are encoded into the video file ``directory`` names instead of written as PNGs.
    public var video: VideoOutput?

    /// How to encode a video.
    public struct VideoOutput: Sendable, Equatable {
        /// The file format (from the file's extension).
        public var container: VideoContainer
        /// The codec; `nil` takes the container's default.
        public var codec: VideoCodec?
        /// Files the render reads (a replay log, a picture), which the video may not replace.
        public var inputs: [String]

        /// Creates a video output.
        public init(container: VideoContainer, codec: VideoCodec? = nil, inputs: [String] = []) {
            self.container = container
            self.codec = codec
            self.inputs = inputs
        }

        /// The encoder's configuration for frames of this size and rate.
        public func configuration(width: Int, height: Int, fps: Double) -> VideoEncoder.Configuration {
            VideoEncoder.Configuration(width: width, height: height, fps: fps, container: container, codec: codec)
        }
    }
    /// Motion source.
    public var motion: Motion
    /// The user's picture the first effect shades, if any.
    public var picture: PictureContent?

    /// Creates a job.
    public init(
        preset: Preset, width: Int, height: Int, frames: Int, fps: Double, directory: String, motion: Motion,
        picture: PictureContent? = nil, video: VideoOutput? = nil
    ) {
        self.picture = picture
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
    public static func staleFrames(in directory: String, after frames: Int) -> String? {
        let next = (directory as NSString).appendingPathComponent(fileName(frames))
        guard FileManager.default.fileExists(atPath: next) else { return nil }
        var last = frames
        while FileManager.default.fileExists(atPath: (directory as NSString).appendingPathComponent(fileName(last + 1)))
        {
            last += 1
        }
        return "\(directory) still holds \(fileName(frames))\(last > frames ? " to \(fileName(last))" : "") from an "
            + "earlier render; they are not part of these \(frames) frames (remove them, or render into an empty folder)"
    }

    public static func fileName(_ i: Int) -> String {
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
    public func run(logger: Logger, progress: ProgressMeter? = nil) throws -> [String] {
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
            let rate = String(format: "%g", fps)
            let why = "a GIF frame lasts whole hundredths of a second, and browsers show those under 2/100 s as 1/10 s"
            logger.warning("\(why): --fps \(rate) will play slower than asked; give --fps 50 or less")
        }
        if encoder == nil {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw RenderError.write(
                    directory,
                    reason:
                        "cannot create the folder (\((error as NSError).localizedDescription)); choose a writable --out"
                )
            }
        }
        let renderer = try OffscreenRenderer(preset: preset, width: width, height: height, picture: picture)
        // A video file is stepped: frame i shows the video at i / fps, whatever the speed of the machine. A camera
        // or pipeline is live: each frame shows its newest picture.
        let feed = PictureFeed(picture: picture, stepped: true)
        try feed?.start()
        defer { feed?.stop() }
        var held = SIMD2<Double>.zero
        if case .held(let tilt) = motion { held = tilt }
        var inputs = FrameInputs(size: SIMD2(Double(width), Double(height)), tilt: held)
        var written: [String] = []
        defer { progress?.finish() }
        /// Draws frame `i` with `motion` (if any) and writes its PNG or encodes it.
        func render(_ i: Int, _ motion: AttitudeFrame?) throws {
            if let motion { inputs.apply(motion) }
            inputs.time = Double(i) / fps
            inputs.frame = i
            inputs.timeDelta = 1 / fps
            do {
                _ = try feed?.show(at: Double(i) / fps, renderer.effects)
            } catch MediaError.stream(let input, let reason) where input.isLive {
                // Offline, a live source that stops is not waited for: the frames written so far are kept (a video
                // being encoded is removed, as on any error).
                let kept =
                    encoder != nil
                    ? "the video \(directory) is not written"
                    : written.isEmpty ? "no frame was written" : "frames 0 to \(i - 1) are written in \(directory)"
                throw MediaError.stream(
                    input: input,
                    reason: "\(reason) at frame \(i); \(kept). A render does not wait for a live source to come back: "
                        + "run it again, or record it to a video file and give that with --image")
            }
            if let encoder {
                try encoder.append(rgba: try renderer.render(inputs))
            } else {
                let path = (directory as NSString).appendingPathComponent(Self.fileName(i))
                try renderer.renderPNG(inputs, to: path)
                written.append(path)
            }
            progress?.update(done: i + 1)
        }
        switch motion {
        case .replay(let timeline, let name):
            logger.info(
                "replaying \(name): \(timeline.frames.count) samples, \(String(format: "%.1f", timeline.duration)) s")
            if let warning = Self.pastTheEnd(frames: frames, fps: fps, timeline: timeline, name: name) {
                logger.warning("\(warning)")
            }
            for i in 0..<frames {
                try render(i, timeline.frame(at: Double(i) / fps))
            }
        case .held(let tilt):
            logger.info("rendering \(frames) frames at the tilt \(tilt.x),\(tilt.y)")
            for i in 0..<frames {
                try render(i, nil)
            }
        case .daemon(let socketPath):
            let daemon = DaemonMotion(socketPath: socketPath, rate: fps)
            defer { daemon.close() }
            let deadline = ContinuousClock.now + .seconds(3)
            while daemon.snapshot.frame == nil {
                if ContinuousClock.now > deadline {
                    let why = daemon.snapshot.lastProblem.map { " (\($0))" } ?? ""
                    throw RenderError.read(
                        daemon.socketPath,
                        reason: "no frames from tiltd\(why); start it (`tiltd`), set TILTD_SOCKET, or use --replay LOG")
                }
                Thread.sleep(forTimeInterval: 0.01)
            }
            logger.info("rendering \(frames) frames from tiltd at \(daemon.socketPath)")
            let start = ContinuousClock.now
            for i in 0..<frames {
                let due = start + .milliseconds(Int(Double(i) * 1000 / fps))
                let wait = ContinuousClock.now.duration(to: due)
                if wait > .zero { Thread.sleep(forTimeInterval: wait.inSeconds) }
                try render(i, daemon.snapshot.frame)
            }
        }
        if let encoder {
            try encoder.finish()
            logger.info("wrote \(frames) frames to \(directory)")
            return [directory]
        }
        logger.info("wrote \(written.count) frames to \(directory)")
        if let stale = Self.staleFrames(in: directory, after: frames) {
            logger.warning("\(stale)")
        }
        return written
    }

    /// The warning when `frames` at `fps` run past the end of `timeline` (the frames after it repeat its last pose),
    /// or `nil` when the log covers them all.
    public static func pastTheEnd(frames: Int, fps: Double, timeline: MotionTimeline, name: String) -> String? {
        let covered = Int((timeline.duration * fps).rounded(.down)) + 1
        guard frames > covered else { return nil }
        let seconds = String(format: "%.1f", Double(frames) / fps)
        let logSeconds = String(format: "%.1f", timeline.duration)
        return "--frames \(frames) at \(String(format: "%g", fps)) fps needs \(seconds) s of motion, but \(name) "
            + "covers \(logSeconds) s (\(covered) frames at this --fps): frames \(covered) to \(frames - 1) repeat "
            + "its last pose; give --frames \(covered) or less, or a lower --fps"
    }
}
