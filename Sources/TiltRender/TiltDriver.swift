import Logging
import TiltCore
import TiltEffects

/// Where the window's tilt comes from: `tiltd`'s frames while it is connected, else the pointer (±0.5 rad at the
/// window's edges, so the highlight follows it). Says so in the log each time the source changes.
struct TiltDriver {
    private let daemon: DaemonMotion
    private let logger: Logger
    private var announced: Source?
    private var ease = AxesEase()

    private enum Source {
        case daemon
        case pointer
    }

    /// A driver reading `daemon`, logging to `logger`.
    init(daemon: DaemonMotion, logger: Logger) {
        self.daemon = daemon
        self.logger = logger
    }

    /// Sets the motion of `inputs` (whose size and pointer are already set) from the daemon or the pointer.
    /// - Parameter elapsed: seconds since the window opened; the pointer is announced only after the first second,
    ///   so a daemon that is merely slow to answer is not reported missing.
    mutating func drive(_ inputs: inout FrameInputs, elapsed: Double) {
        let snapshot = daemon.snapshot
        if snapshot.connected, let motion = snapshot.frame {
            inputs.apply(motion)
            inputs.tilt = ease.ease(inputs.tilt, axes: motion.axes, at: elapsed)
            if announced != .daemon {
                logger.info("driven by tiltd at \(daemon.socketPath)")
                announced = .daemon
            }
        } else {
            let n = inputs.pointer / SIMD2(max(inputs.size.x, 1), max(inputs.size.y, 1)) - 0.5
            inputs.tilt = SIMD2(-n.y, -n.x)
            if announced != .pointer && elapsed > 1 {
                let why = snapshot.lastProblem.map { " (\($0))" } ?? ""
                logger.notice("no tiltd at \(daemon.socketPath)\(why): using the pointer as tilt")
                announced = .pointer
            }
        }
    }
}
