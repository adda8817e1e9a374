import TiltCore
import TiltEffects
import TiltRender

/// A scheduler behind a reference, so that `#expect` can call its mutating methods.
final class SchedulerLoop {
    var scheduler: FrameScheduler

    init(policy: PowerPolicy, displayRate: Double? = nil, duration: Double? = nil) {
        scheduler = FrameScheduler(policy: policy, displayRate: displayRate, duration: duration)
    }

    var decision: PowerPolicy.Decision? { scheduler.decision }
    var motionRate: Double? { scheduler.motionRate }
    func next(power: PowerState?, window: WindowVisibility, now: Double) -> FrameScheduler.Step {
        scheduler.next(power: power, window: window, now: now)
    }
    func admit(_ inputs: FrameInputs, animated: Bool, overlay: String? = nil, now: Double) -> Bool {
        scheduler.admit(inputs, animated: animated, overlay: overlay, now: now)
    }
    func invalidate() { scheduler.invalidate() }
    func contentChanged() { scheduler.contentChanged() }
    func finalStats(now: Double) -> PowerGate.Stats { scheduler.finalStats(now: now) }
}
