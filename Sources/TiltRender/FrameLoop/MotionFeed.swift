import FoundationEssentials
import TiltCore
import TiltEffects

/// Where the motion of a ``FrameLoop``'s frames comes from: the daemon (``DaemonFeed``), a tilt held still
/// (``HeldMotion``), a replayed timeline (``ReplayMotion``), or a scripted path (``ScriptedMotion``).
package protocol MotionFeed {
    /// Sets the motion fields of `inputs` (its clock, size and pointer are set already) for a frame `elapsed`
    /// seconds into the run.
    mutating func drive(_ inputs: inout FrameInputs, elapsed: Double)
    /// Looks at the source once per turn of the loop, drawn or not (to say when it comes or goes).
    mutating func tick(elapsed: Double)
    /// The latest power state from the source; `nil`: none known (counted as mains).
    var power: PowerState? { get }
    /// Asks for motion at `rate` Hz; `nil`: none is needed (the still frame is shown, or nothing is seen).
    func watch(rate: Double?)
    /// The display's rotation changed (the source turns its axes with it).
    func setScreenRotation(_ rotation: ScreenRotation)
    /// Blocks until the source has news (a frame, a power change) or `timeout` seconds pass.
    func waitForChange(timeout: Double)
    /// A frame driven by this feed was drawn: started (its motion read) at `drawStart` and swapped at `swapEnd`,
    /// seconds on the monotonic clock; the sink expects it on the display `displayDelay` seconds after the swap.
    mutating func presented(drawStart: Double, swapEnd: Double, displayDelay: Double)
    /// Blocks until the first motion arrives, for a render that cannot start without it.
    /// - Throws: `RenderError.read` when none comes within `timeout` seconds.
    func waitForFirstFrame(timeout: Double) throws
}

extension MotionFeed {
    package mutating func tick(elapsed: Double) {}
    package var power: PowerState? { nil }
    package func watch(rate: Double?) {}
    package func setScreenRotation(_ rotation: ScreenRotation) {}
    package func waitForChange(timeout: Double) { sleepThread(seconds: max(0, timeout)) }
    package func waitForFirstFrame(timeout: Double) throws {}
    package mutating func presented(drawStart: Double, swapEnd: Double, displayDelay: Double) {}
}

/// A tilt held still (`--tilt X,Y`): only the effect's time runs. The attitude and gravity follow the tilt
/// (``FrameInputs/hold(tilt:)``).
package struct HeldMotion: MotionFeed {
    /// X, Y radians.
    package var tilt: SIMD2<Double>

    /// Holds `tilt`.
    package init(tilt: SIMD2<Double>) { self.tilt = tilt }

    package func drive(_ inputs: inout FrameInputs, elapsed: Double) { inputs.hold(tilt: tilt) }
}

/// Frames played back from a timeline (a fused sensor log): a frame `t` seconds into the run shows the timeline at
/// `t`.
package struct ReplayMotion: MotionFeed {
    /// The frames played.
    package var timeline: MotionTimeline

    /// Plays `timeline`.
    package init(timeline: MotionTimeline) { self.timeline = timeline }

    package func drive(_ inputs: inout FrameInputs, elapsed: Double) {
        if let frame = timeline.frame(at: elapsed) { inputs.apply(frame) }
    }
}

/// Motion computed from the time by a function (a benchmark's sweep).
package struct ScriptedMotion: MotionFeed {
    /// Sets the motion of a frame at the given time.
    package var script: @Sendable (inout FrameInputs, Double) -> Void

    /// Drives frames by `script`.
    package init(_ script: @escaping @Sendable (inout FrameInputs, Double) -> Void) { self.script = script }

    package func drive(_ inputs: inout FrameInputs, elapsed: Double) { script(&inputs, elapsed) }
}
