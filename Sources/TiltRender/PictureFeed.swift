import TiltCore
import TiltMedia

/// The moving picture of a render: a ``VideoSource`` for a ``PictureContent``'s ``PictureContent/video``, whose
/// frames are shown by an ``EffectRenderer`` as they come, and which follows the power gate.
///
/// - Live (`tiltfx run`, `bench`, a camera or pipeline anywhere): the loop asks ``refresh(_:)`` before each frame; the
///   newest decoded frame, if a new one came, is uploaded (the decoder never waits for the loop, nor the loop for
///   the decoder).
/// - Stepped (a video file in `tiltfx render`): ``show(at:_:)`` shows the frame of the video at that time, decoded
///   frame by frame, so the output is the same on any machine.
///
/// Power (``follow(_:showingOn:)``): in `still` and `hidden` a camera or pipeline is closed (its pipeline set to NULL, the
/// device released) and a file paused; both play again when the mode returns to `full` or `capped`.
/// Lives on the render loop's thread, with the GL context.
public final class PictureFeed {
    /// The source of the frames.
    public let source: VideoSource
    /// Whether the power gate stopped it (``follow(_:showingOn:)``).
    public private(set) var isGated = false
    /// Frames uploaded so far.
    public private(set) var framesShown = 0
    /// The frame on show, kept to show a renderer made later (a hot reload).
    private var onShow: VideoFrame?

    /// The feed of `picture`'s video, or `nil` for no picture or a still one.
    /// - Parameter stepped: whether a video file is stepped frame by frame (an offline render) rather than played
    ///   live; a camera or pipeline is always live.
    public init?(picture: PictureContent?, stepped: Bool = false) {
        guard let input = picture?.video else { return nil }
        source = VideoSource(input, configuration: .init(pacing: stepped && !input.isLive ? .stepped : .live))
    }

    /// Whether the source's pipeline exists (a gated camera's does not).
    public var isOpen: Bool { source.isOpen }
    /// Whether frames are coming: open and not paused.
    public var isPlaying: Bool { source.isOpen && !source.isPaused }

    /// Opens the source and waits for its first frame.
    /// - Throws: `MediaError` (no camera, a busy one, a file that does not decode, a pipeline that cannot be built).
    public func start() throws(MediaError) {
        try source.open()
    }

    /// Stops the source (the end of a run).
    public func stop() {
        source.close()
    }

    /// Shows the newest frame when a new one came since the last call.
    /// - Returns: whether a new frame was shown (the loop then draws even when nothing else changed).
    /// - Throws: `MediaError` when the source stopped with an error; `ImageError` for a frame over the GL's limit.
    public func refresh(_ effects: EffectRenderer) throws -> Bool {
        guard !isGated, let frame = try source.latestFrame() else { return false }
        try effects.show(frame)
        onShow = frame
        framesShown += 1
        return true
    }

    /// Shows the frame on show `seconds` into a stepped video (a live source: the newest frame, as ``refresh(_:)``).
    /// - Returns: whether the picture changed.
    public func show(at seconds: Double, _ effects: EffectRenderer) throws -> Bool {
        guard source.configuration.pacing == .stepped else { return try refresh(effects) }
        let frame = try source.frame(at: seconds)
        guard frame !== onShow else { return false }
        try effects.show(frame)
        onShow = frame
        framesShown += 1
        return true
    }

    /// Shows the frame on show now on `effects` (a renderer made after it came).
    public func reshow(_ effects: EffectRenderer) throws {
        if let onShow { try effects.show(onShow) }
    }

    /// Follows the power mode: `still` and `hidden` close a live source and pause a file, once the newest frame is
    /// shown on `effects` (the still frame shows it); `full` and `capped` open or play it again.
    /// - Returns: what changed, for the log; `nil` when nothing did.
    /// - Throws: `MediaError` when a camera cannot be opened again (unplugged meanwhile) or stopped with an error.
    public func follow(_ mode: PowerMode, showingOn effects: EffectRenderer) throws -> String? {
        let stop = mode == .still || mode == .hidden
        guard stop != isGated else { return nil }
        let live = source.input.isLive
        if stop {
            _ = try refresh(effects)
            isGated = true
            if live { source.close() } else { source.setPaused(true) }
            return "\(source.input) \(live ? "closed" : "paused") while \(mode)"
        }
        isGated = false
        // Not waiting for the first frame: the loop goes on with the last one until the camera has started.
        if live { try source.open(waitingForFirstFrame: false) } else { source.setPaused(false) }
        return "\(source.input) \(live ? "open" : "playing") again"
    }
}
