import TiltCore

/// The renderer's power policy: which ``PowerMode`` to use for a power state and window state, and the rates each
/// mode implies.
///
/// By default mains power draws `full`, a battery `capped`, and a low-power situation (a power-saver profile, or a
/// battery under ``lowBatteryPercent`` percent) `still`. A preset may change the three choices (its `power` key), and
/// `tiltfx --power-policy full|capped|still` fixes one mode for every situation. A hidden window is always
/// ``PowerMode/hidden``. No power state (no daemon) counts as mains.
package struct PowerPolicy: Sendable, Hashable {
    /// The mode on mains power.
    package var mains: PowerMode
    /// The mode on battery, above the low-battery threshold, without a power-saver profile.
    package var battery: PowerMode
    /// The mode when the system asks to save power.
    package var lowPower: PowerMode
    /// Battery charge under which a discharging battery counts as low power, percent.
    package var lowBatteryPercent = 20
    /// Frames per second in ``PowerMode/capped``.
    package var cappedFrameRate = 30.0
    /// Motion rate asked of the daemon in ``PowerMode/capped``, Hz.
    package var cappedMotionRate = 15.0
    /// Motion rate asked of the daemon in ``PowerMode/full``, Hz.
    package var fullMotionRate = 60.0

    /// A policy choosing these modes, with the automatic threshold and rates (change a field to tune one); the
    /// defaults are the ``automatic`` policy.
    package init(mains: PowerMode = .full, battery: PowerMode = .capped, lowPower: PowerMode = .still) {
        (self.mains, self.battery, self.lowPower) = (mains, battery, lowPower)
    }

    /// Full on mains, capped on battery, still when saving power.
    package static let automatic = PowerPolicy()

    /// One mode whatever the power state (a hidden window still draws nothing).
    package static func fixed(_ mode: PowerMode) -> PowerPolicy {
        PowerPolicy(mains: mode, battery: mode, lowPower: mode)
    }

    /// What to do, and at which rates.
    package struct Decision: Sendable, Hashable {
        /// The mode.
        package var mode: PowerMode
        /// Most frames per second to draw; `nil`: as fast as the display (or the run) goes; `0`: none after the
        /// first (still) or none at all (hidden).
        package var frameRate: Double?
        /// Motion rate to ask of the daemon, Hz; `nil`: do not watch motion.
        package var motionRate: Double?

        /// For logs: `capped (30 fps, motion 15 Hz)`, `still (one frame, no motion)`.
        package var summary: String {
            let frames: String =
                switch mode {
                case .still: "one frame"
                case .hidden: "no frames"
                default: frameRate.map { "\(Int($0)) fps" } ?? "display rate"
                }
            return "\(mode.rawValue) (\(frames), \(motionRate.map { "motion \(Int($0)) Hz" } ?? "no motion"))"
        }

        /// A decision.
        package init(mode: PowerMode, frameRate: Double?, motionRate: Double?) {
            self.mode = mode
            self.frameRate = frameRate
            self.motionRate = motionRate
        }
    }

    /// The mode for `power` (nil: no daemon, counted as mains) and the window's visibility.
    package func mode(power: PowerState?, window: WindowVisibility = .visible) -> PowerMode {
        if window == .hidden { return .hidden }
        guard let power else { return mains }
        if power.isLowPower(lowBatteryPercent: lowBatteryPercent) { return lowPower }
        return power.onBattery ? battery : mains
    }

    /// The decision for `power` and the window's visibility.
    package func decide(power: PowerState?, window: WindowVisibility = .visible) -> Decision {
        decision(for: mode(power: power, window: window))
    }

    /// The rates a mode implies under this policy.
    package func decision(for mode: PowerMode) -> Decision {
        switch mode {
        case .full: Decision(mode: .full, frameRate: nil, motionRate: fullMotionRate)
        case .capped: Decision(mode: .capped, frameRate: cappedFrameRate, motionRate: cappedMotionRate)
        case .still: Decision(mode: .still, frameRate: 0, motionRate: nil)
        case .hidden: Decision(mode: .hidden, frameRate: 0, motionRate: nil)
        }
    }
}
