import Logging
import TiltCore
import TiltEffects
import TiltGL
import TiltMedia

/// Plays the media of a Shadertoy program's live channels (videos, the webcam, music, the microphone) and hands their
/// pixels to the renderer before each frame (``update(_:time:)``): TiltGL draws them, TiltMedia decodes them.
///
/// What it plays follows the renderer's program each frame, so a hot reload that adds or drops a channel opens or
/// closes its media. Two pacings, as ``PictureFeed``'s:
/// - live (`run`, `run --headless`, the wallpaper, `bench`): a video plays in real time, looped, and its newest frame
///   is shown; the microphone's newest 1024 samples make its sound texture.
/// - stepped (`render`): a video shows the frame of its time, decoded frame by frame; the output is the same on any
///   machine.
/// Music is decoded whole when first needed, and each frame shows the 1024 samples that end at the frame's time, the
/// track looping, in both pacings; `iChannelTime` is the time into the track (or the video).
///
/// What cannot play does not stop the picture: music that does not decode and no capture device are silence, and a
/// webcam channel with no `--camera` or `--source` (or a camera that does not open) shows a test pattern; each says
/// so once on the logger. A video that does not play is an error, as a `--video` picture's is.
///
/// Lives on the render loop's thread, with the GL context.
package final class ChannelMedia {
    /// Where the webcam channel's pictures come from: `--camera` or `--source`; `nil` shows a test pattern.
    package let webcam: VideoInput?
    /// Whether videos are stepped frame by frame (an offline render) rather than played live.
    package let stepped: Bool
    /// The microphone's pipeline (default: GStreamer's `autoaudiosrc`, the default capture device).
    package let microphonePipeline: String?
    /// Where fallbacks are said.
    let logger: Logger

    private var videos: [String: VideoSource] = [:]
    private var camera: VideoSource?
    /// While the camera is out (it did not open, or stopped): when to try it again, and the wait after that.
    private var cameraRetry: (at: ContinuousClock.Instant, delay: Double)?
    /// Whether the camera was opened before (a later opening does not wait for its first frame).
    private var cameraOpenedBefore = false
    /// How a camera or pipeline that stops is opened again: the first wait and the longest, in seconds.
    package let retry: PictureFeed.Retry
    private var tracks: [String: AudioTrack] = [:]
    private var microphone: AudioCapture?
    /// Sources that could not play, each said once: they are silent or show the test pattern from then on.
    private var fallbacks: Set<ShadertoyChannel.Source> = []
    /// What each source shows now, and the update that changed it last.
    private var shown: [ShadertoyChannel.Source: (pixels: ChannelPixels, update: Int)] = [:]
    /// Updates so far.
    private var updates = 0
    /// The renderers shown to, each with the last update it was shown: a new one (a hot reload, a new output) is
    /// shown everything, the others only what changed.
    private var viewers: [Viewer] = []

    /// A renderer shown to, held weakly: one that went away is forgotten.
    private final class Viewer {
        weak var renderer: EffectRenderer?
        var seen: Int

        init(_ renderer: EffectRenderer, seen: Int) {
            self.renderer = renderer
            self.seen = seen
        }
    }

    /// Media for live channels.
    /// - Parameters:
    ///   - webcam: the webcam channel's input (`--camera`, `--source`); `nil`: a test pattern.
    ///   - stepped: step videos frame by frame (an offline render).
    ///   - microphonePipeline: the microphone's GStreamer source; `nil`: the default capture device.
    ///   - retry: how a webcam that does not open or stops is tried again (it shows the test pattern meanwhile).
    package init(
        webcam: VideoInput? = nil, stepped: Bool = false, microphonePipeline: String? = nil,
        retry: PictureFeed.Retry = PictureFeed.Retry(),
        logger: Logger = Logger(label: "tiltfx.channels")
    ) {
        self.webcam = webcam
        self.retry = retry
        self.stepped = stepped
        self.microphonePipeline = microphonePipeline
        self.logger = logger
    }

    /// Shows every live channel of `renderer`'s program as it is at `time` (seconds since the start: the frame's
    /// `iTime`), opening what is new and closing what the program no longer reads.
    /// - Throws: `MediaError` for a video that does not play.
    package func update(_ renderer: EffectRenderer, time: Double) throws {
        try update([renderer], time: time)
    }

    /// Shows every live channel of the programs of `renderers` (the wallpaper's outputs) as it is at `time`, each
    /// source played once for all; what none of them reads any more is closed.
    package func update(_ renderers: [EffectRenderer], time: Double) throws {
        let sources = Set(
            renderers.flatMap { ($0.preset.shadertoyProgram?.channels ?? []).map(\.source) }.filter(\.isLive))
        if sources.isEmpty && shown.isEmpty && videos.isEmpty && tracks.isEmpty && camera == nil && microphone == nil {
            return
        }
        close(keeping: sources)
        if !isGated {
            updates += 1
            for source in sources {
                guard let pixels = try pixels(of: source, at: time) else { continue }
                shown[source] = (pixels, updates)
            }
        }
        viewers.removeAll { $0.renderer == nil }
        for renderer in renderers {
            let viewer = viewers.first { $0.renderer === renderer }
            for (source, entry) in shown where entry.update > (viewer?.seen ?? -1) {
                renderer.showChannel(source, entry.pixels)
            }
            if let viewer { viewer.seen = updates } else { viewers.append(Viewer(renderer, seen: updates)) }
        }
    }

    /// Closes every source (a run's end).
    package func close() {
        close(keeping: [])
    }

    /// Whether the power gate stopped the media (``follow(_:)``).
    package private(set) var isGated = false

    /// Follows the power gate: in `still` and `hidden` the camera and the microphone are closed (the devices
    /// released) and live videos paused; they play again from the next frame drawn in `full` or `capped`. The
    /// textures keep what they showed last.
    /// - Returns: what changed, for the log; `nil` when nothing did.
    @discardableResult
    package func follow(_ mode: PowerMode) -> String? {
        let stop = mode == .still || mode == .hidden
        guard stop != isGated else { return nil }
        isGated = stop
        let devices = (camera == nil ? [] : ["the camera"]) + (microphone == nil ? [] : ["the microphone"])
        if stop {
            camera = nil
            microphone?.close()
            microphone = nil
        }
        if !stepped { for video in videos.values { video.setPaused(stop) } }
        let parts = devices.map { "\($0) closed" } + (videos.isEmpty || stepped ? [] : ["videos paused"])
        guard stop, !parts.isEmpty else { return nil }
        return "channels: \(parts.joined(separator: ", ")) while \(mode)"
    }

    private func close(keeping sources: Set<ShadertoyChannel.Source>) {
        for path in videos.keys where !sources.contains(.video(path: path)) { videos[path] = nil }
        if !sources.contains(.webcam) { camera = nil }
        for path in tracks.keys where !sources.contains(.music(path: path)) { tracks[path] = nil }
        if !sources.contains(.microphone) {
            microphone?.close()
            microphone = nil
        }
        shown = shown.filter { sources.contains($0.key) }
    }

    /// The pixels `source` shows at `time`, or `nil` when they have not changed.
    private func pixels(of source: ShadertoyChannel.Source, at time: Double) throws -> ChannelPixels? {
        switch source {
        case .video(let path):
            return try video(path, at: time)
        case .webcam:
            return webcamPixels()
        case .music(let path?):
            guard !fallbacks.contains(source) else { return nil }
            guard let track = track(path, source: source), track.duration > 0 else { return .silence }
            let into = time.truncatingRemainder(dividingBy: track.duration)
            return ChannelPixels(
                width: AudioSpectrum.width, height: AudioSpectrum.height, format: .r8,
                bytes: AudioSpectrum.texels(track.window(endingAt: into)), time: into)
        case .microphone:
            guard !fallbacks.contains(source) else { return nil }
            if microphone == nil {
                let capture = AudioCapture(pipeline: microphonePipeline)
                do { try capture.open() } catch {
                    // No device says itself that the shader hears silence.
                    let silence = if case .noAudioCapture = error { "" } else { "; the channel hears silence" }
                    fallBack(source, "microphone channel: \(error)\(silence)")
                    return .silence
                }
                microphone = capture
            }
            guard let microphone else { return nil }
            return ChannelPixels(
                width: AudioSpectrum.width, height: AudioSpectrum.height, format: .r8,
                bytes: AudioSpectrum.texels(microphone.latest()), time: time)
        case .music(nil), .buffer, .texture, .keyboard, .cubemap, .cubeBuffer:
            return nil
        }
    }

    /// A video channel's frame: the newest (live) or the one at `time` (stepped).
    private func video(_ path: String, at time: Double) throws -> ChannelPixels? {
        let source: VideoSource
        if let open = videos[path] {
            source = open
        } else {
            source = VideoSource(.file(path), configuration: .init(pacing: stepped ? .stepped : .live))
            if !stepped { try source.open() }
            videos[path] = source
        }
        let frame = stepped ? try source.frame(at: time) : try source.latestFrame()
        return frame.map {
            ChannelPixels(width: $0.width, height: $0.height, format: .rgba8, bytes: $0.pixels, time: $0.time)
        }
    }

    /// The webcam channel's newest frame, or the test pattern without a camera. A camera or pipeline that does not
    /// open, or stops, shows the test pattern and is tried again after ``retry``'s wait, doubling up to its longest;
    /// said once when it goes and once when it is back.
    private func webcamPixels() -> ChannelPixels? {
        guard let input = webcam else {
            if fallbacks.contains(.webcam) { return nil }
            fallBack(
                .webcam,
                "webcam channel: no --camera or --source given; it shows a test pattern (give --camera [DEVICE] or "
                    + "--source PIPELINE)")
            return Self.testPattern
        }
        if let wait = cameraRetry, ContinuousClock.now < wait.at { return nil }
        do {
            if camera == nil {
                let opened = VideoSource(input)
                // The first time, the first frame is waited for (a render shows it); a camera tried again is not:
                // the loop goes on with the test pattern until it has started.
                try opened.open(waitingForFirstFrame: !cameraOpenedBefore)
                cameraOpenedBefore = true
                camera = opened
                if fallbacks.remove(.webcam) != nil { logger.info("webcam channel: \(input) is back") }
                cameraRetry = nil
            }
            guard let frame = try camera?.latestFrame() else { return nil }
            return ChannelPixels(
                width: frame.width, height: frame.height, format: .rgba8, bytes: frame.pixels, time: frame.time)
        } catch {
            camera = nil
            let delay = cameraRetry.map { min(retry.longestDelay, $0.delay * 2) } ?? retry.firstDelay
            cameraRetry = (ContinuousClock.now + .milliseconds(Int(delay * 1000)), delay)
            guard !fallbacks.contains(.webcam) else { return nil }
            // A render (stepped) is over before a retry would matter; a live run says it tries again.
            let again =
                stepped
                ? ""
                : ", and \(input) is tried again every \(String(printf: "%g", retry.firstDelay)) to "
                    + "\(String(printf: "%g", retry.longestDelay)) s"
            fallBack(.webcam, "webcam channel: \(error); it shows a test pattern\(again)")
            return Self.testPattern
        }
    }

    /// A music channel's track, decoded on first use; `nil` (silence, said once) when it does not decode.
    private func track(_ path: String, source: ShadertoyChannel.Source) -> AudioTrack? {
        if let track = tracks[path] { return track }
        do {
            let track = try AudioTrack(path: path)
            tracks[path] = track
            if let notice = track.notice { logger.warning("music channel: \(notice)") }
            return track
        } catch {
            fallBack(source, "music channel: \(error); the channel hears silence")
            return nil
        }
    }

    private func fallBack(_ source: ShadertoyChannel.Source, _ message: String) {
        fallbacks.insert(source)
        logger.warning("\(message)")
    }

    /// Colour bars, 256 × 144: white, yellow, cyan, green, magenta, red, blue and black from left to right over a grey
    /// ramp in the lower quarter, so that a webcam channel with no camera shows that it has none.
    static let testPattern: ChannelPixels = {
        let (width, height) = (256, 144)
        let bars: [[UInt8]] = [
            [255, 255, 255], [255, 255, 0], [0, 255, 255], [0, 255, 0], [255, 0, 255], [255, 0, 0], [0, 0, 255],
            [0, 0, 0],
        ]
        var bytes = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                let colour = y < height * 3 / 4 ? bars[x * bars.count / width] : [UInt8](repeating: UInt8(x), count: 3)
                bytes[i] = colour[0]
                bytes[i + 1] = colour[1]
                bytes[i + 2] = colour[2]
            }
        }
        return ChannelPixels(width: width, height: height, format: .rgba8, bytes: bytes, time: 0)
    }()
}
