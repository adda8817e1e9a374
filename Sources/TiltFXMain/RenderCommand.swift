import ArgumentParser
import FoundationEssentials
import Logging
import TiltCore
import TiltEffects
import TiltMedia
import TiltPlayback
import TiltRender

/// `tiltfx render`: headless rendering to PNG (one frame, a frame sequence, or a watched frame) or to a video
/// (WebM, MP4, GIF: a frame sequence encoded through TiltMedia).
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a preset headless (no display needed) to PNG or to a video (WebM, MP4, GIF).",
        discussion: """
            One frame (the same arguments always give the same pixels):
              tiltfx render --preset holo-card --tilt 0.2,0.1 --size 800x1100 \\
                --out card.png
            A sequence driven by a sensor log (with --tilt, held at that tilt while the effect's time runs; with \
            neither, driven by tiltd):
              tiltfx render --preset foil --frames 120 --fps 30 \\
                --replay LOG.csv.gz --out frames/
            The same sequence as a video, chosen by the extension of --out: .webm (VP9, or --codec vp8), .mp4 \
            (H.264 through x264enc, Debian's gstreamer1.0-plugins-ugly), .gif (252 dithered \
            colours, looping; keep --fps at 50 or less):
              tiltfx render --preset foil --frames 120 --fps 30 \\
                --replay LOG.csv.gz --out foil.webm
            A picture of yours as the content the effects shade (PNG or JPEG; --fit contain, cover or stretch):
              tiltfx render --preset holo-card --image me.jpg --fit cover --out card.png
            A video as the content (looped; frame i shows it at i/fps, the same on every machine), or a camera or \
            any GStreamer pipeline (their newest picture):
              tiltfx render --preset holo-card --image clip.webm --frames 60 --out frames/
              tiltfx render --preset foil --source videotestsrc --frames 30 --out f/
            Edit the preset and see it (re-renders on every save):
              tiltfx render --preset holo-card --out card.png --watch
            A Shadertoy JSON export, its media beside it or in --assets (a webcam channel shows --camera or \
            --source, else a test pattern; music not found is silence):
              tiltfx render --preset shader.json --assets media/ --out toy.png
            Tilt is the x,y tip in radians about the screen's axes (docs/coordinates.md). Progress goes to stderr: a redrawn \
            line on a terminal, else a line every 2 s ($TILTFX_PROGRESS_INTERVAL); for a video it counts the frames \
            the encoder has taken. A video is written to a .partial-… file beside it and renamed into place when \
            complete: a failure (a full disk) or Ctrl-C leaves no partial video (Ctrl-C says so), and an existing one is replaced only \
            then. --size is limited by the GL's \
            largest texture, counting the padding a layer effect adds around the frame.
            """)

    @OptionGroup var choice: PresetChoice

    @OptionGroup var picture: PictureOptions

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Tilt as X,Y radians (rotation about the screen's x and y axes), each from -π to π, e.g. --tilt -0.1,0.2;"
                + " with --frames, every frame holds it."))
    var tilt: TiltPair?

    @Option(parsing: .unconditional, help: "Effect time in seconds (one frame only).")
    var time: Double = 0

    @Option(parsing: .unconditional, help: "Output size, WxH pixels.")
    var size: PixelSize = PixelSize(width: 1280, height: 720)

    @Option(
        help: """
            The PNG file to write, or with --frames the folder for frame-00000.png, frame-00001.png, … or a video \
            file: NAME.webm, NAME.mp4 or NAME.gif.
            """)
    var out: String

    @Option(parsing: .unconditional, help: "Render this many frames into the --out folder or video.")
    var frames: Int?

    @Option(
        help: """
            The video codec: vp9 (default for .webm) or vp8 in .webm; h264 in .mp4 (the only one).
            """)
    var codec: String?

    @Option(parsing: .unconditional, help: "Frames per second of the sequence.")
    var fps: Double = 30

    @Option(help: "A sensor log (.csv or .csv.gz) that drives the tilt of the sequence; without it, tiltd does.")
    var replay: String?

    @Flag(
        help: """
            With --replay: stop at the first bad row of the log with its file, line and column (default: skip bad \
            rows, report them on standard error and count them; see docs/log-format.md).
            """)
    var strict = false

    @OptionGroup var daemon: DaemonSocketOption

    @Flag(help: "Keep running: re-render --out whenever the preset's files change (Ctrl-C stops).")
    var watch = false

    func validate() throws {
        try choice.presets.requireDirectory()
        if let problem = size.problem() { throw ValidationError(problem) }
        if frames != nil && watch { throw ValidationError("--watch renders one frame; drop --frames") }
        if frames == nil && (replay != nil) { throw ValidationError("--replay drives a sequence; add --frames N") }
        if tilt != nil && replay != nil {
            throw ValidationError("--tilt holds the tilt still and --replay drives it; give one of them")
        }
        if strict && replay == nil {
            throw ValidationError("--strict applies to the log of --replay; add --replay LOG")
        }
        if let frames, frames <= 0 { throw ValidationError("--frames must be positive") }
        if fps <= 0 || !fps.isFinite { throw ValidationError("--fps must be positive") }
        if !time.isFinite { throw ValidationError("--time must be a number of seconds") }
        if let tilt, !tilt.isWithinOneTurn {
            throw ValidationError(
                "--tilt \(tilt): X and Y must each be from -π to π radians (-3.1416 to 3.1416): a tilt is a rotation "
                    + "about the screen's axes, and tiltd's soft clamp keeps it under --limit, 0.5 by default")
        }
        if let container = VideoContainer(path: out) {
            if frames == nil {
                throw ValidationError("--out \(out) is a video; say how long with --frames N (and --fps F, default 30)")
            }
            if let codec {
                guard let chosen = VideoCodec(rawValue: codec.lowercased()), container.codecs.contains(chosen) else {
                    let allowed = container.codecs.map(\.rawValue)
                    throw ValidationError(
                        allowed.isEmpty
                            ? "--codec: a .gif has no codec to choose; drop --codec"
                            : "--codec \(codec): a .\(container.rawValue) file holds "
                                + allowed.joined(separator: " or "))
                }
            }
        } else {
            if codec != nil { throw ValidationError("--codec applies to a video; name --out NAME.webm or NAME.mp4") }
            if frames != nil, let problem = VideoName.problem(out) { throw ValidationError("--out \(out): \(problem)") }
        }
        if frames == nil, OutputPath.namesFolder(out) {
            throw ValidationError(
                "--out \(out) names a folder, but one frame is one PNG file: give a file name (e.g. "
                    + "\(PNGName.example(in: out))), or add --frames N to render a sequence into the folder")
        }
        if frames == nil, let problem = PNGName.problem(out) { throw ValidationError("--out \(out): \(problem)") }
    }

    /// Checks --out before any work (the preset compiles, a log is fused, tiltd is waited for): a frame's PNG file
    /// must be creatable where it is named; a sequence's folder is made by the job, a video's file by its encoder,
    /// both before rendering too.
    private func checkOutput() throws {
        guard frames == nil else { return }
        try OutputPath.checkFile(out, replacing: true, inputs: [picture.image].compactMap { $0 })
    }

    /// How to encode --out, or `nil` for PNG.
    private var video: FrameSequenceJob.VideoOutput? {
        VideoContainer(path: out).map {
            FrameSequenceJob.VideoOutput(
                container: $0, codec: codec.flatMap { VideoCodec(rawValue: $0.lowercased()) },
                inputs: [replay, picture.image].compactMap { $0 })
        }
    }

    func run() throws {
        let logger = Logger(label: "tiltfx")
        try checkOutput()
        if let video {
            // Before the preset compiles or a log is fused: a missing encoder is known at once.
            try VideoEncoder.check(video.configuration(width: size.width, height: size.height, fps: fps))
        }
        let loaded = try choice.load()
        let content = try picture.load(for: loaded)
        let webcam = picture.webcam(for: loaded)
        if let frames {
            let motion: FrameSequenceJob.Motion
            if let replay {
                let timeline = MotionTimeline(
                    frames: try LogReplay.frames(path: replay, strict: strict) {
                        StandardStream.error.write(Data(($0 + "\n").utf8))
                    })
                motion = .replay(timeline, name: replay)
            } else if let tilt {
                motion = .held(tilt: SIMD2(tilt.x, tilt.y))
            } else {
                motion = .daemon(socketPath: daemon.socket)
            }
            let job = FrameSequenceJob(
                preset: loaded, width: size.width, height: size.height, frames: frames, fps: fps, directory: out,
                motion: motion, picture: content, video: video, webcam: webcam)
            try job.run(logger: logger, progress: .standardError(total: frames, unit: "frames"))
            return
        }
        let job = StillRenderJob(
            preset: loaded, width: size.width, height: size.height,
            tilt: SIMD2(tilt?.x ?? 0, tilt?.y ?? 0), time: time, output: out, picture: content, webcam: webcam)
        if watch { try job.watch(logger: logger) } else { try job.run(logger: logger) }
    }
}
