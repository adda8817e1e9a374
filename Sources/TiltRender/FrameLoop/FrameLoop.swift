import FoundationEssentials
import Logging
import TiltCore
import TiltEffects
import TiltGL
import TiltMedia

/// The one frame loop every `tiltfx` command composes: a pacing (live, power-gated and drawn on change; or offline,
/// frame by frame), a motion feed and a frame sink, with the user's moving picture kept in step.
///
/// - `live`: a ``FrameScheduler`` decides, each turn, whether to stop, idle, wait or draw; the sink's events (quit,
///   exposure, a reloaded preset, the pointer, the display's rotation) and the feed's power state go into it, and a
///   frame whose inputs are those of the last one drawn is skipped. The frame's time is the wall clock.
/// - `offline`: `frames` frames, frame i showing the time i / fps, as fast as they can be drawn; with `realTime`,
///   frame i is also drawn no earlier than i / fps after the start (motion taken live from the daemon).
/// - `still`: one frame at a given time, with no frame before it (its time step is 0).
/// - `timed`: as many frames as fit in `seconds`, each 1/60 s of effect time after the last (a benchmark).
package struct FrameLoop {
    /// How frames are paced.
    package enum Pacing {
        /// Power-gated and drawn on change, until the scheduler's duration passes or the loop is stopped.
        case live(FrameScheduler)
        /// `frames` frames at `fps`; with `realTime`, no faster than `fps` either.
        case offline(frames: Int, fps: Double, realTime: Bool = false)
        /// One frame showing the effect time `time`.
        case still(time: Double)
        /// Frames as fast as they draw for `seconds` of wall time, 1/60 s of effect time apart, after one warm-up.
        case timed(seconds: Double)
    }

    /// How frames are paced.
    package var pacing: Pacing
    /// Says where the time goes.
    package var logger: Logger
    /// Told after each frame of an offline run is written (the frames done so far).
    package var progress: ProgressMeter?
    /// Asked once per turn of a live run: `true` ends it (a signal arrived).
    package var shouldStop: () -> Bool = { false }
    /// Told on every change of power mode with the new decision and the power state that caused it.
    package var onModeChange: (PowerPolicy.Decision, PowerState?) -> Void = { _, _ in }
    /// Told after a timed run's warm-up frame, before the clock starts (to take counts the result leaves it out of).
    package var afterWarmUp: () -> Void = {}
    /// Plays a Shadertoy program's video, webcam and sound channels, shown before each frame: stepped offline, live
    /// otherwise, with a test pattern for the webcam (a runner with `--camera` or `--source` gives its own).
    package var channelMedia: ChannelMedia

    /// A loop paced by `pacing`.
    package init(pacing: Pacing, logger: Logger, progress: ProgressMeter? = nil) {
        self.pacing = pacing
        self.logger = logger
        self.progress = progress
        let stepped =
            switch pacing {
            case .offline(_, _, let realTime): !realTime
            case .still: true
            case .live, .timed: false
            }
        channelMedia = ChannelMedia(stepped: stepped, logger: logger)
    }

    /// What a run did.
    package struct Outcome: Sendable {
        /// Frames drawn.
        package var frames: Int
        /// Wall-clock seconds the frames took (after the warm-up frame of a timed run).
        package var seconds: Double
        /// A live run's frames drawn and skipped in each power mode; `nil` offline.
        package var stats: PowerGate.Stats?
    }

    /// Runs frames from `motion` into `sink`, showing `picture`'s frames when the user's picture moves.
    /// - Throws: whatever the sink, the feed or the picture throws; a live source that stops during an offline run
    ///   is a `MediaError.stream` saying what the sink kept.
    @discardableResult
    package func run(
        sink: some FrameSink, motion: inout some MotionFeed, picture: PictureFeed? = nil
    ) throws -> Outcome {
        switch pacing {
        case .live(let scheduler):
            return try live(scheduler, sink: sink, motion: &motion, picture: picture)
        case .offline(let frames, let fps, let realTime):
            return try offline(
                frames: frames, fps: fps, realTime: realTime, still: nil, sink: sink, motion: &motion, picture: picture)
        case .still(let time):
            return try offline(
                frames: 1, fps: 1, realTime: false, still: time, sink: sink, motion: &motion, picture: picture)
        case .timed(let seconds):
            return try timed(seconds: seconds, sink: sink, motion: &motion, picture: picture)
        }
    }

    private func live(
        _ initial: FrameScheduler, sink: some FrameSink, motion: inout some MotionFeed, picture: PictureFeed?
    ) throws -> Outcome {
        var scheduler = initial
        let clock = ContinuousClock()
        let start = clock.now
        var last = start
        var frame = 0
        let size = sink.size
        var pointer = SIMD2<Double>(Double(size.x) / 2, Double(size.y) / 2)
        var pointerDown = false
        // Shadertoy's keyboard channel: every key up until the sink reports one.
        var keyboard = ShadertoyKeyboard()
        var wait = 0.0
        func elapsed() -> Double { start.duration(to: clock.now).inSeconds }
        while !shouldStop() {
            if sink.hasEvents || wait == 0 {
                let events = sink.poll(waitSeconds: wait)
                if events.quit { break }
                if events.invalidated { scheduler.invalidate() }
                if events.redraw { scheduler.contentChanged() }
                if let moved = events.pointer { pointer = SIMD2(moved.x, moved.y) }
                pointerDown = events.pointerDown ?? pointerDown
                for key in events.keys {
                    if key.down { keyboard.press(key.code) } else { keyboard.release(key.code) }
                }
                switch events.reloaded {
                case true?:
                    try picture?.reshow(sink.effects)
                    scheduler.contentChanged()
                case false?: scheduler.invalidate()  // a still frame shows the error too
                case nil: break
                }
                if let rotation = events.screenRotation {
                    motion.setScreenRotation(rotation)
                    scheduler.invalidate()
                }
            } else {
                motion.waitForChange(timeout: wait)
            }
            wait = 0
            let t = elapsed()
            motion.tick(elapsed: t)
            let power = motion.power
            let step = scheduler.next(power: power, window: sink.visibility, now: t)
            if let change = step.change {
                motion.watch(rate: change.motionRate)
                logger.info("power: \(change.summary)")
                if let line = try picture?.follow(change.mode, showingOn: sink.effects) {
                    logger.info("picture: \(line)")
                }
                if let line = channelMedia.follow(change.mode) { logger.info("\(line)") }
                onModeChange(change, power)
            }
            switch step.action {
            case .stop: return Outcome(frames: frame, seconds: elapsed(), stats: scheduler.finalStats(now: elapsed()))
            case .idle(let timeout):
                // The still frame is shown, or nothing can be seen: draw nothing until something changes, looking at
                // the power state again now and then.
                wait = min(sink.idleWait, max(0.001, timeout ?? 1))
            case .wait(let seconds): sleepThread(seconds: seconds)
            case .frameDue:
                let now = clock.now
                let drawStart = monotonicSeconds()
                var inputs = FrameInputs(
                    time: start.duration(to: now).inSeconds, timeDelta: last.duration(to: now).inSeconds,
                    frame: frame, size: SIMD2(Double(sink.size.x), Double(sink.size.y)), pointer: pointer,
                    pointerDown: pointerDown)
                inputs.keyboard = keyboard
                last = now
                motion.drive(&inputs, elapsed: inputs.time)
                // A new video frame is drawn even when nothing else changed.
                let fresh = try picture?.refresh(sink.effects) ?? false
                try channelMedia.update(sink.channelRenderers, time: inputs.time)
                let overlay = (sink as? any ErrorOverlaySink)?.overlay
                guard
                    scheduler.admit(
                        inputs.onlyReading(sink.motionSources), animated: sink.isAnimated || fresh, overlay: overlay,
                        now: t)
                else {
                    // Nothing changed; where the display's swap paces the loop, it would spin without this. Wait for
                    // the next motion (tiltd sends it at the rate watched), a display frame at most: the first moving
                    // frame is drawn when it comes, and a still device costs a wake-up per motion frame, not more.
                    if scheduler.displayRate == nil { motion.waitForChange(timeout: 1.0 / 60) }
                    continue
                }
                try sink.present(inputs, frame: frame)
                keyboard.frameDrawn()
                motion.presented(
                    drawStart: drawStart, swapEnd: monotonicSeconds(), displayDelay: sink.presentationDelay)
                frame += 1
            }
        }
        return Outcome(frames: frame, seconds: elapsed(), stats: scheduler.finalStats(now: elapsed()))
    }

    private func offline(
        frames: Int, fps: Double, realTime: Bool, still: Double?, sink: some FrameSink,
        motion: inout some MotionFeed, picture: PictureFeed?
    ) throws -> Outcome {
        defer { progress?.finish() }
        let start = ContinuousClock.now
        for i in 0..<frames {
            let t = still ?? Double(i) / fps
            if realTime {
                let wait = ContinuousClock.now.duration(to: start + .milliseconds(Int(Double(i) * 1000 / fps)))
                if wait > .zero { sleepThread(seconds: wait.inSeconds) }
            }
            var inputs = FrameInputs(
                time: t, timeDelta: still == nil ? 1 / fps : 0, frame: i,
                size: SIMD2(Double(sink.size.x), Double(sink.size.y)))
            motion.drive(&inputs, elapsed: t)
            do {
                _ = try picture?.show(at: t, sink.effects)
            } catch MediaError.stream(let input, let reason) where input.isLive {
                // Offline, a live source that stops is not waited for: what the sink wrote so far is kept (a video
                // being encoded is removed, as on any error).
                throw MediaError.stream(
                    input: input,
                    reason: "\(reason) at frame \(i); \(sink.kept(failingAt: i)). A render does not wait for a live "
                        + "source to come back: run it again, or record it to a video file and give that with --image")
            }
            try channelMedia.update(sink.channelRenderers, time: t)
            try sink.present(inputs, frame: i)
            progress?.update(done: i + 1)
        }
        try sink.finish()
        return Outcome(frames: frames, seconds: start.duration(to: .now).inSeconds, stats: nil)
    }

    private func timed(
        seconds: Double, sink: some FrameSink, motion: inout some MotionFeed, picture: PictureFeed?
    ) throws -> Outcome {
        let size = SIMD2(Double(sink.size.x), Double(sink.size.y))
        // A warm-up frame (0), not timed: the first draw compiles and uploads what the driver defers.
        _ = try picture?.refresh(sink.effects)
        try channelMedia.update(sink.channelRenderers, time: 0)
        try sink.present(FrameInputs(size: size), frame: 0)
        afterWarmUp()
        let clock = ContinuousClock()
        let start = clock.now
        var frames = 0
        var elapsed = 0.0
        repeat {
            // Frame numbers from 1, a 60 Hz time step, so a preset's simulation steps as it would on screen.
            let t = Double(frames) / 60
            var inputs = FrameInputs(time: t, timeDelta: 1.0 / 60, frame: frames + 1, size: size)
            motion.drive(&inputs, elapsed: t)
            _ = try picture?.refresh(sink.effects)
            try channelMedia.update(sink.channelRenderers, time: t)
            try sink.present(inputs, frame: frames + 1)
            frames += 1
            elapsed = start.duration(to: clock.now).inSeconds
        } while elapsed < seconds
        return Outcome(frames: frames, seconds: elapsed, stats: nil)
    }
}

/// A sink that draws an error over the effect (the window's banner after a failed reload); its text counts as part
/// of the frame for render-on-change.
package protocol ErrorOverlaySink: FrameSink {
    /// The text shown over the effect, or `nil`.
    var overlay: String? { get }
}
