import FoundationEssentials
import Logging
import TiltClient
import TiltCore
import TiltEffects
import TiltGL
import TiltWire

/// Motion from `tiltd` (through ``DaemonMotion``), and what to do while it does not answer: take the tilt from the
/// pointer (a window: ±0.5 rad at its edges, so the highlight follows it) or draw with no motion (headless). Says so
/// in the log when the source changes, after the first second, so a daemon that is merely slow to answer is not
/// reported missing.
package struct DaemonFeed: MotionFeed {
    /// What drives the tilt while no daemon answers.
    package enum Fallback: Sendable {
        /// The pointer's position in the frame.
        case pointer
        /// Nothing: tilt 0,0 and, with no power state, as on mains.
        case level
    }

    /// The connection.
    package let daemon: DaemonMotion
    private let fallback: Fallback
    private let logger: Logger
    private var announced: Source?
    private var ease = AxesEase()
    /// How the motion drawn is predicted (`--predict`).
    package let prediction: PredictionSetting
    /// What was measured from motion to display, frame by frame.
    package private(set) var timing = PresentationTiming()
    /// The frame the latest drawing showed, and when it was received.
    private var drawn: (frame: AttitudeFrame, received: Double?)?
    /// What tiltd was last asked to predict, seconds.
    private var asked = 0.0

    private enum Source {
        case daemon
        case fallback
    }

    /// A feed reading `daemon`, logging to `logger`, predicting as `prediction` says (with `.fixed`, make
    /// `daemon` with that `predict`; `.auto` sets it as it measures).
    package init(daemon: DaemonMotion, fallback: Fallback, logger: Logger, prediction: PredictionSetting = .off) {
        self.daemon = daemon
        self.fallback = fallback
        self.logger = logger
        self.prediction = prediction
        if case .fixed(let seconds) = prediction {
            asked = seconds
            daemon.setPredict(seconds)
        }
    }

    /// The newest frame, carried to the moment the frame being started is expected on the display (`auto`).
    private func current(_ snapshot: DaemonMotion.Snapshot) -> AttitudeFrame? {
        guard let frame = snapshot.frame else { return nil }
        guard prediction == .auto else { return frame }
        return frame.extrapolated(toMonotonic: monotonicSeconds() + timing.expectedLead)
    }

    package mutating func drive(_ inputs: inout FrameInputs, elapsed: Double) {
        let snapshot = daemon.snapshot
        drawn = nil
        switch fallback {
        case .pointer:
            if snapshot.connected, let motion = current(snapshot) {
                inputs.apply(motion)
                inputs.tilt = ease.ease(inputs.tilt, axes: motion.axes, at: elapsed)
                drawn = (motion, snapshot.received)
            } else {
                let n = inputs.pointer / SIMD2(max(inputs.size.x, 1), max(inputs.size.y, 1)) - 0.5
                inputs.tilt = SIMD2(-n.y, -n.x)
            }
        case .level:
            if let motion = current(snapshot) {
                inputs.apply(motion)
                drawn = (motion, snapshot.received)
            }
        }
    }

    package mutating func presented(drawStart: Double, swapEnd: Double, displayDelay: Double) {
        timing.add(
            mono: drawn?.frame.mono, received: drawn?.received, drawStart: drawStart, swapEnd: swapEnd,
            predicted: drawn?.frame.predicted, displayDelay: displayDelay)
        guard prediction == .auto, let typical = timing.expectedSampleToSwap else { return }
        // tiltd predicts (with its fitted model, the tilt smoothed after it) most of the way: the sample-to-display
        // time measured so far, in 5 ms steps so a jittery measure does not keep re-sending `watch`.
        let wanted = min(max(((typical + displayDelay) / 0.005).rounded() * 0.005, 0), WireProtocol.maxPredict)
        if abs(wanted - asked) >= 0.005 {
            asked = wanted
            daemon.setPredict(wanted)
        }
    }

    package mutating func tick(elapsed: Double) {
        let snapshot = daemon.snapshot
        let answering = snapshot.connected && (fallback == .level || snapshot.frame != nil)
        if answering, announced == .fallback || (announced == nil && fallback == .pointer) {
            logger.info(
                fallback == .pointer
                    ? "driven by tiltd at \(daemon.socketPath)" : "tiltd answers at \(daemon.socketPath) now")
            announced = .daemon
        } else if !answering, announced != .fallback, elapsed > 1 {
            let why = snapshot.lastProblem.map { " (\($0))" } ?? ""
            switch fallback {
            case .pointer:
                logger.notice("no tiltd at \(daemon.socketPath)\(why): using the pointer as tilt")
            case .level:
                let what =
                    "drawing with no motion (tilt 0,0) and, with no power state, as on mains; start tiltd or give "
                    + "--socket. Frames follow it once it answers."
                logger.notice("no tiltd answers at \(daemon.socketPath)\(why): \(what)")
            }
            announced = .fallback
        }
    }

    package var power: PowerState? { daemon.snapshot.power }
    package func watch(rate: Double?) { daemon.watch(rate: rate) }
    package func setScreenRotation(_ rotation: ScreenRotation) { daemon.setScreenRotation(rotation) }
    package func waitForChange(timeout: Double) { _ = daemon.waitForChange(timeout: timeout) }

    package func waitForFirstFrame(timeout: Double) throws {
        let deadline = ContinuousClock.now + .seconds(timeout)
        while daemon.snapshot.frame == nil {
            if ContinuousClock.now > deadline {
                let why = daemon.snapshot.lastProblem.map { " (\($0))" } ?? ""
                throw RenderError.read(
                    daemon.socketPath,
                    reason: "no frames from tiltd\(why); start it (`tiltd`), set TILTD_SOCKET, or use --replay LOG")
            }
            sleepThread(seconds: 0.01)
        }
    }
}
