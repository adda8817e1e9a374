import TiltCore

extension PowerPolicy {
    /// Frames a second on battery (``PowerMode/capped``) for a preset whose effect reads the time: it draws every
    /// frame even when nothing moves, so the automatic policy caps it lower than one that draws only on motion.
    package static let animatedCappedFrameRate = 15.0

    /// The automatic policy for `preset`: its own `power` key when it has one, else ``automatic``, capped at
    /// ``animatedCappedFrameRate`` on battery when the preset is animated.
    package static func automatic(for preset: Preset) -> PowerPolicy {
        if let own = preset.power { return own }
        var policy = PowerPolicy.automatic
        if !DependencyAnalysis.dependencies(of: preset).isDisjoint(with: [.time, .previousFrame]) {
            policy.cappedFrameRate = animatedCappedFrameRate
        }
        return policy
    }

    /// The most demanding of `policies` in each situation (full over capped over still), with the highest capped
    /// rates and the lowest low-battery threshold: what one loop drawing several outputs follows, each output then
    /// holding back to its own policy. ``automatic`` when `policies` is empty.
    package static func mostDemanding(_ policies: [PowerPolicy]) -> PowerPolicy {
        guard var combined = policies.first else { return .automatic }
        for policy in policies.dropFirst() {
            combined.mains = max(combined.mains, policy.mains)
            combined.battery = max(combined.battery, policy.battery)
            combined.lowPower = max(combined.lowPower, policy.lowPower)
            combined.cappedFrameRate = Swift.max(combined.cappedFrameRate, policy.cappedFrameRate)
            combined.cappedMotionRate = Swift.max(combined.cappedMotionRate, policy.cappedMotionRate)
            combined.fullMotionRate = Swift.max(combined.fullMotionRate, policy.fullMotionRate)
            combined.lowBatteryPercent = Swift.min(combined.lowBatteryPercent, policy.lowBatteryPercent)
        }
        return combined
    }

    /// The more demanding of two modes: the one that draws more.
    private static func max(_ a: PowerMode, _ b: PowerMode) -> PowerMode {
        a.drawRank >= b.drawRank ? a : b
    }
}

extension PowerMode {
    /// How much a mode draws: hidden 0, still 1, capped 2, full 3.
    package var drawRank: Int {
        switch self {
        case .hidden: 0
        case .still: 1
        case .capped: 2
        case .full: 3
        }
    }
}
