/// The system's power situation, as the daemon reads it and publishes it.
///
/// When no probe finds anything the state is mains power with no profile: a desktop, or a machine that does
/// not say.
public struct PowerState: Hashable, Sendable {
    /// Running on battery (no mains supply online).
    public var onBattery: Bool
    /// Battery charge in percent, if a battery reports it.
    public var capacity: Int?
    /// The active power profile (`power-saver`, `balanced`, `performance`, or an ACPI `platform_profile` value).
    public var profile: String?

    public init(onBattery: Bool = false, capacity: Int? = nil, profile: String? = nil) {
        self.onBattery = onBattery
        self.capacity = capacity
        self.profile = profile
    }

    /// Mains power, no profile.
    public static let mains = PowerState()

    /// Whether the system asks applications to save power: a power-saver or low-power profile, or a battery
    /// under `lowBatteryPercent` while discharging.
    public func isLowPower(lowBatteryPercent: Int = 20) -> Bool {
        if let profile, ["power-saver", "low-power", "quiet", "cool"].contains(profile) { return true }
        if onBattery, let capacity, capacity < lowBatteryPercent { return true }
        return false
    }

    public var lowPower: Bool { isLowPower() }
}
