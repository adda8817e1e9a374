import Foundation
import Logging
import TiltCore
import TiltEffects

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

    /// Creates a job.
    public init(
        preset: Preset, width: Int, height: Int, frames: Int, fps: Double, directory: String, motion: Motion
    ) {
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
    /// - Returns: the paths written.
    /// - Throws: `RenderError` (unwritable folder, no daemon) or `PresetError`.
    @discardableResult
    public func run(logger: Logger) throws -> [String] {
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
        let renderer = try OffscreenRenderer(preset: preset, width: width, height: height)
        var inputs = FrameInputs(size: SIMD2(Double(width), Double(height)))
        var written: [String] = []
        switch motion {
        case .replay(let timeline, let name):
            logger.info(
                "replaying \(name): \(timeline.frames.count) samples, \(String(format: "%.1f", timeline.duration)) s")
            for i in 0..<frames {
                let t = Double(i) / fps
                if let frame = timeline.frame(at: t) { inputs.apply(frame) }
                inputs.time = t
                inputs.frame = i
                inputs.timeDelta = 1 / fps
                let path = (directory as NSString).appendingPathComponent(Self.fileName(i))
                try renderer.renderPNG(inputs, to: path)
                written.append(path)
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
                if let frame = daemon.snapshot.frame { inputs.apply(frame) }
                inputs.time = Double(i) / fps
                inputs.frame = i
                inputs.timeDelta = 1 / fps
                let path = (directory as NSString).appendingPathComponent(Self.fileName(i))
                try renderer.renderPNG(inputs, to: path)
                written.append(path)
            }
        }
        logger.info("wrote \(written.count) frames to \(directory)")
        return written
    }
}
