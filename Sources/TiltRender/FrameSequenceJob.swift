import Foundation
import Logging
import TiltCore
import TiltEffects
import TiltMedia

/// `tiltfx render --frames N --fps F --out DIR`: a numbered PNG sequence driven by a log replay or by the daemon.
public struct FrameSequenceJob: Sendable {
    /// Where motion comes from.
    public enum Motion: Sendable {
        /// Frames played back (a fused sensor log, see `TiltPlayback.LogReplay`); frame i shows the timeline at
        /// i / fps seconds. `name` says where they came from, for the log.
        case replay(MotionTimeline, name: String)
        /// The running daemon; frames are taken in real time at `fps`.
        case daemon(socketPath: String?)
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
    /// Output folder (created if missing).
    public var directory: String
    /// Motion source.
    public var motion: Motion
    /// The user's picture the first effect shades, if any.
    public var picture: PictureContent?

    /// Creates a job.
    public init(
        preset: Preset, width: Int, height: Int, frames: Int, fps: Double, directory: String, motion: Motion,
        picture: PictureContent? = nil
    ) {
        self.picture = picture
        self.preset = preset
        self.width = width
        self.height = height
        self.frames = frames
        self.fps = fps
        self.directory = directory
        self.motion = motion
    }

    /// The file name of frame `i`: `frame-00000.png`.
    public static func fileName(_ i: Int) -> String {
        let n = String(i)
        return "frame-" + String(repeating: "0", count: max(0, 5 - n.count)) + n + ".png"
    }

    /// Renders every frame.
    /// - Parameter progress: told after each frame (the command shows it on stderr).
    /// - Returns: the paths written.
    /// - Throws: `RenderError` (unwritable folder, no daemon) or `PresetError`.
    @discardableResult
    public func run(logger: Logger, progress: ProgressMeter? = nil) throws -> [String] {
        guard frames > 0, fps > 0, fps.isFinite else {
            throw RenderError.argument("--frames and --fps must be positive (got \(frames) frames at \(fps) fps)")
        }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw RenderError.write(
                directory,
                reason: "cannot create the folder (\((error as NSError).localizedDescription)); choose a writable --out"
            )
        }
        let renderer = try OffscreenRenderer(preset: preset, width: width, height: height, picture: picture)
        // A video file is stepped: frame i shows the video at i / fps, whatever the speed of the machine. A camera
        // or pipeline is live: each frame shows its newest picture.
        let feed = PictureFeed(picture: picture, stepped: true)
        try feed?.start()
        defer { feed?.stop() }
        var inputs = FrameInputs(size: SIMD2(Double(width), Double(height)))
        var written: [String] = []
        defer { progress?.finish() }
        /// Draws frame `i` with `motion` (if any) and writes its PNG.
        func render(_ i: Int, _ motion: AttitudeFrame?) throws {
            if let motion { inputs.apply(motion) }
            inputs.time = Double(i) / fps
            inputs.frame = i
            inputs.timeDelta = 1 / fps
            do {
                _ = try feed?.show(at: Double(i) / fps, renderer.effects)
            } catch MediaError.stream(let input, let reason) where input.isLive {
                // Offline, a live source that stops is not waited for: the frames written so far are kept.
                let kept = written.isEmpty ? "no frame was written" : "frames 0 to \(i - 1) are written in \(directory)"
                throw MediaError.stream(
                    input: input,
                    reason: "\(reason) at frame \(i); \(kept). A render does not wait for a live source to come back: "
                        + "run it again, or record it to a video file and give that with --image")
            }
            let path = (directory as NSString).appendingPathComponent(Self.fileName(i))
            try renderer.renderPNG(inputs, to: path)
            written.append(path)
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
        logger.info("wrote \(written.count) frames to \(directory)")
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
