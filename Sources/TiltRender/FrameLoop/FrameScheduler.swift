import TiltCore
import TiltEffects

/// Decides, for a live render loop (the window or the headless run), when to draw, when to skip, how long to wait
/// and what motion to watch.
///
/// The rules (README's Power section): `full` draws at the display's rate (or the run's frame rate) and watches
/// motion at the full rate; `capped` draws at most ``PowerPolicy/cappedFrameRate`` frames a second and watches at
/// ``PowerPolicy/cappedMotionRate``; `still` draws one frame, stops watching and waits for a power or window change;
/// `hidden` draws nothing and watches nothing. A frame whose inputs are those of the last one drawn is skipped,
/// unless the preset reads the time (it is animated) or it is the still frame.
///
/// A pure value with no GL, SDL or clock in it: the loop passes the time and the state it observed, and carries out
/// what comes back. Each turn of a loop is
/// 1. ``next(power:window:now:)``: follow the power and window state; act on a mode change (``Step/change``), then
///    on ``Step/action``: stop, idle, wait, or build the frame's inputs;
/// 2. when a frame is due, ``admit(_:animated:overlay:now:)``: draw when it returns `true`.
///
/// It counts what was drawn and skipped in each mode through a ``PowerGate``.
package struct FrameScheduler: Sendable {
    /// What the loop does next.
    package enum Action: Sendable, Hashable {
        /// The run's time is up.
        case stop
        /// No frame is due until the power or window state changes (the still frame is shown, or nothing can be
        /// seen): block on whatever wakes the loop, for at most `timeout` seconds (the rest of the run; `nil`: as
        /// long as the loop likes, it still has to notice power changes).
        case idle(timeout: Double?)
        /// The next frame is due in `seconds` (never past the run's end).
        case wait(seconds: Double)
        /// A frame is due: build its inputs and ask ``FrameScheduler/admit(_:animated:overlay:now:)``.
        case frameDue
    }

    /// What one turn of the loop does.
    package struct Step: Sendable, Hashable {
        /// The new decision when the power mode changed, else `nil`. The loop logs it and watches motion at its
        /// ``PowerPolicy/Decision/motionRate`` (`nil`: stops watching).
        package var change: PowerPolicy.Decision?
        /// What to do now.
        package var action: Action

        /// A step.
        package init(change: PowerPolicy.Decision? = nil, action: Action) {
            self.change = change
            self.action = action
        }
    }

    /// What a drawn frame looked like, for render-on-change: its inputs without the clock, and the overlay text.
    private struct Drawn: Sendable, Hashable {
        var inputs: FrameInputs
        var overlay: String?

        /// Whether a frame of `other` would look like this one: the same size, pointer and overlay, and motion that
        /// moved less than ``FrameScheduler/unseenMotion`` from this frame's. Compared with the last frame *drawn*,
        /// so a slow drift is drawn as soon as it adds up to a visible step.
        func looksLike(_ other: Drawn) -> Bool {
            let a = inputs
            let b = other.inputs
            let unseen = FrameScheduler.unseenMotion
            func near<V: SIMD>(_ x: V, _ y: V, _ tolerance: Double) -> Bool where V.Scalar == Double {
                ((x - y) * (x - y)).sum() <= tolerance * tolerance
            }
            return overlay == other.overlay && a.size == b.size && a.pointer == b.pointer
                && a.pointerDown == b.pointerDown && a.keyboard == b.keyboard && near(a.tilt, b.tilt, unseen.angle)
                && near(a.euler, b.euler, unseen.angle) && near(a.attitude, b.attitude, unseen.angle / 2)
                && near(a.gravity, b.gravity, unseen.acceleration)
                && near(a.userAcceleration, b.userAcceleration, unseen.acceleration)
                && near(a.rotationRate, b.rotationRate, unseen.rate)
        }
    }

    /// Motion smaller than this, since the last frame drawn, draws no new frame: a device lying still still reports
    /// its sensors' noise (a few 10⁻⁵ rad of shaped tilt a frame, 10⁻³ rad/s of rate), which no one could see, and
    /// drawing it kept the renderer busy at the display's rate. 2·10⁻⁴ rad (0.011°) moves an effect mapped to ±0.5 rad
    /// across a 4K screen by less than a pixel.
    package static let unseenMotion = (angle: 2e-4, rate: 2e-3, acceleration: 2e-3)

    /// The power bookkeeping: current decision, pacing and statistics.
    package private(set) var gate: PowerGate
    /// Frames per second of `full` mode when nothing else paces it (headless); `nil`: the display's swap paces it.
    package let displayRate: Double?
    /// Seconds after which the run ends; `nil`: it runs until stopped from outside.
    package let duration: Double?
    private var lastDrawn: Drawn?

    /// A scheduler for `policy`.
    /// - Parameters:
    ///   - policy: the power policy.
    ///   - displayRate: frames per second in `full` mode where no display paces the loop; `nil` for a window.
    ///   - duration: seconds after which ``next(power:window:now:)`` says ``Action/stop``.
    package init(policy: PowerPolicy, displayRate: Double? = nil, duration: Double? = nil) {
        gate = PowerGate(policy: policy)
        self.displayRate = displayRate
        self.duration = duration
    }

    /// The current decision; `nil` before the first ``next(power:window:now:)``.
    package var decision: PowerPolicy.Decision? { gate.decision }

    /// The motion rate the loop should be watching now, Hz; `nil`: none. Before the first decision, the full rate
    /// (what a loop subscribes with before it knows the power state).
    package var motionRate: Double? { decision.map(\.motionRate) ?? gate.policy.fullMotionRate }

    /// Follows the power and window state at `now` and says what to do.
    /// - Parameters:
    ///   - power: the latest power state (`nil`: no daemon, counted as mains).
    ///   - window: whether the output can be seen (headless: always visible).
    ///   - now: seconds since the run began.
    package mutating func next(power: PowerState?, window: WindowVisibility, now: Double) -> Step {
        if let duration, now >= duration { return Step(action: .stop) }
        let change = gate.update(power: power, window: window, now: now)
        if change != nil { lastDrawn = nil }  // a new mode draws its first frame whatever the inputs
        let remaining = duration.map { max(0, $0 - now) }
        guard let delay = gate.delay(now: now, displayRate: displayRate) else {
            return Step(change: change, action: .idle(timeout: remaining))
        }
        if delay > 0 { return Step(change: change, action: .wait(seconds: min(delay, remaining ?? delay))) }
        return Step(change: change, action: .frameDue)
    }

    /// Whether to draw the due frame: yes when the preset is animated, when anything it reads (tilt, size, pointer,
    /// motion beyond ``unseenMotion``) or the overlay changed since the last frame drawn, and always for the still
    /// frame. Counts the frame as drawn or skipped.
    /// - Parameters:
    ///   - inputs: the frame's inputs; their clock (time, time delta, frame number) is not compared.
    ///   - animated: whether the preset reads the time, so every frame differs.
    ///   - overlay: text drawn over the effect (the window's error banner), compared too.
    ///   - now: seconds since the run began.
    /// - Returns: `true`: draw the frame; `false`: it would look like the last one, skip it.
    package mutating func admit(_ inputs: FrameInputs, animated: Bool, overlay: String? = nil, now: Double) -> Bool {
        var clockless = inputs
        clockless.time = 0
        clockless.timeDelta = 0
        clockless.frame = 0
        let drawn = Drawn(inputs: clockless, overlay: overlay)
        if !animated, let lastDrawn, drawn.looksLike(lastDrawn), decision?.mode != .still {
            gate.skipped(now: now)
            return false
        }
        lastDrawn = drawn
        gate.drew(now: now)
        return true
    }

    /// The still frame is drawn again (the window was exposed or resized, or an error banner appeared).
    package mutating func invalidate() {
        gate.invalidate()
    }

    /// What is drawn changed (the preset was reloaded): the next due frame is drawn even with the same inputs, and
    /// the still frame again.
    package mutating func contentChanged() {
        gate.invalidate()
        lastDrawn = nil
    }

    /// What was drawn and skipped in each mode, with the current mode's time counted up to `now`.
    package func finalStats(now: Double) -> PowerGate.Stats {
        gate.finalStats(now: now)
    }
}
