import Logging
import TiltCore
import TiltGL
import TiltImage
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
/// Stops (``Retry``): a camera unplugged or a pipeline that fails or ends while a run plays it is, with a retry,
/// said once as a warning; its last frame stays on show and it is opened again, less and less often, until it is
/// back. Without one (an offline render, a bench) the stop is thrown.
///
/// Lives on the render loop's thread, with the GL context.
package final class PictureFeed {
    /// How a live source that stopped is opened again: after ``firstDelay`` seconds, then twice as long after each
    /// failed try, up to ``longestDelay``.
    package struct Retry: Sendable, Hashable {
        /// Seconds before the first try (default 1).
        package var firstDelay: Double
        /// The longest wait between tries, in seconds (default 10).
        package var longestDelay: Double

        /// A retry; the defaults are documented on each property.
        package init(firstDelay: Double = 1, longestDelay: Double = 10) {
            self.firstDelay = firstDelay
            self.longestDelay = longestDelay
        }
    }

    /// A live source that stopped, being opened again.
    struct Outage {
        /// When it stopped.
        var since: ContinuousClock.Instant
        /// When to try next (while closed).
        var nextTry: ContinuousClock.Instant
        /// The wait before the try after next.
        var delay: Double
        /// Tries so far.
        var tries = 0
        /// When the try under way built its pipeline (it waits for its first frame); `nil` between tries.
        var opened: ContinuousClock.Instant?
    }

    /// How a live source that stopped is opened again; `nil` when a stop is thrown.
    package let retry: Retry?
    /// Where a stop and a return are said (with a retry).
    let logger: Logger?
    let clock = ContinuousClock()
    /// Whether the live source stopped and is being opened again.
    var outage: Outage?
    /// The source of the frames.
    package let source: VideoSource
    /// Whether the power gate stopped it (``follow(_:showingOn:)``).
    package private(set) var isGated = false
    /// Frames uploaded so far.
    package private(set) var framesShown = 0
    /// The frame on show, kept to show a renderer made later (a hot reload).
    private var onShow: VideoFrame?

    /// The feed of `picture`'s video, or `nil` for no picture or a still one.
    /// - Parameter stepped: whether a video file is stepped frame by frame (an offline render) rather than played
    ///   live; a camera or pipeline is always live.
    /// - Parameter retry: how a camera or pipeline that stops is opened again (a live run), said on `logger`;
    ///   `nil` (default): a stop is thrown.
    package init?(picture: PictureContent?, stepped: Bool = false, retry: Retry? = nil, logger: Logger? = nil) {
        guard let input = picture?.video else { return nil }
        source = VideoSource(input, configuration: .init(pacing: stepped && !input.isLive ? .stepped : .live))
        self.retry = input.isLive ? retry : nil
        self.logger = logger
    }

    /// Whether a live source stopped and is being opened again (its last frame stays on show meanwhile).
    package var isStopped: Bool { outage != nil }

    /// Whether the source's pipeline exists (a gated camera's does not).
    package var isOpen: Bool { source.isOpen }
    /// Whether frames are coming: open and not paused.
    package var isPlaying: Bool { source.isOpen && !source.isPaused }

    /// Opens the source and waits for its first frame.
    /// - Throws: `MediaError` (no camera, a busy one, a file that does not decode, a pipeline that cannot be built).
    package func start() throws(MediaError) {
        try source.open()
    }

    /// Stops the source (the end of a run).
    package func stop() {
        source.close()
    }

    /// Shows the newest frame when a new one came since the last call.
    /// - Returns: whether a new frame was shown (the loop then draws even when nothing else changed).
    /// - Throws: `MediaError` when the source stopped with an error (without a ``retry``); `ImageError` for a frame
    ///   over the GL's limit.
    package func refresh(_ effects: EffectRenderer) throws -> Bool {
        guard !isGated else { return false }
        if outage != nil { return try recover(effects) }
        let newest: VideoFrame?
        do {
            newest = try source.latestFrame()
        } catch {
            try stopped(error)
            return false
        }
        guard let frame = newest else { return false }
        try show(frame, effects)
        return true
    }

    /// Shows `frame` on `effects` and keeps it on show.
    func show(_ frame: VideoFrame, _ effects: EffectRenderer) throws {
        try effects.show(frame)
        onShow = frame
        framesShown += 1
    }

    /// Shows the frame on show `seconds` into a stepped video (a live source: the newest frame, as ``refresh(_:)``).
    /// - Returns: whether the picture changed.
    package func show(at seconds: Double, _ effects: EffectRenderer) throws -> Bool {
        guard source.configuration.pacing == .stepped else { return try refresh(effects) }
        let frame = try source.frame(at: seconds)
        guard frame !== onShow else { return false }
        try effects.show(frame)
        onShow = frame
        framesShown += 1
        return true
    }

    /// Shows the frame on show now on `effects` (a renderer made after it came).
    package func reshow(_ effects: EffectRenderer) throws {
        if let onShow { try effects.show(onShow) }
    }

    /// Follows the power mode: `still` and `hidden` close a live source and pause a file, once the newest frame is
    /// shown on `effects` (the still frame shows it); `full` and `capped` open or play it again.
    /// - Returns: what changed, for the log; `nil` when nothing did.
    /// - Throws: `MediaError` when a camera cannot be opened again (unplugged meanwhile) or stopped with an error.
    package func follow(_ mode: PowerMode, showingOn effects: EffectRenderer) throws -> String? {
        let stop = mode == .still || mode == .hidden
        guard stop != isGated else { return nil }
        let live = source.input.isLive
        if stop {
            _ = try refresh(effects)
            isGated = true
            if live { source.close() } else { source.setPaused(true) }
            outage?.opened = nil
            return "\(source.input) \(live ? "closed" : "paused") while \(mode)"
        }
        isGated = false
        if outage != nil {
            // Stopped before the gate: tried again at once, on the next refresh.
            outage?.nextTry = clock.now
            return "\(source.input) had stopped: trying to open it again"
        }
        // Not waiting for the first frame: the loop goes on with the last one until the camera has started.
        if live {
            do {
                try source.open(waitingForFirstFrame: false)
            } catch {
                try stopped(error)
            }
        } else {
            source.setPaused(false)
        }
        return "\(source.input) \(live ? "open" : "playing") again"
    }
}
