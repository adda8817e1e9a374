import Foundation

/// A fake `/sys/class/power_supply` tree (and ACPI `platform_profile` file) in a temporary folder.
///
/// `AC/` is a `Mains` supply with `online`; `BAT0/` a system `Battery` with `status` and `capacity`. The test
/// switches it between mains, battery and low battery by rewriting the files, as the kernel would.
public final class FakePowerSupply: Sendable {
    /// The folder to pass as the power_supply root.
    public let root: String
    /// The platform profile file (written by ``setPlatformProfile(_:)``; absent until then).
    public let platformProfile: String
    private let base: URL

    /// Creates the tree, on mains with a full battery.
    public init() throws {
        base = TestPaths.temporaryDirectory("tilt-power")
        root = base.appendingPathComponent("power_supply").path
        platformProfile = base.appendingPathComponent("platform_profile").path
        try write("AC/type", "Mains")
        try write("BAT0/type", "Battery")
        try write("BAT0/scope", "System")
        try mains(capacity: 100)
    }

    deinit { try? FileManager.default.removeItem(at: base) }

    /// On mains, charging (or full at 100 %).
    public func mains(capacity: Int) throws {
        try write("AC/online", "1")
        try write("BAT0/status", capacity >= 100 ? "Full" : "Charging")
        try write("BAT0/capacity", "\(capacity)")
    }

    /// Unplugged, discharging at `capacity` percent.
    public func battery(capacity: Int) throws {
        try write("AC/online", "0")
        try write("BAT0/status", "Discharging")
        try write("BAT0/capacity", "\(capacity)")
    }

    /// Adds a peripheral's battery (a mouse: `scope` is `Device`), which must not count.
    public func addPeripheralBattery(capacity: Int) throws {
        try write("hidpp_battery_0/type", "Battery")
        try write("hidpp_battery_0/scope", "Device")
        try write("hidpp_battery_0/status", "Discharging")
        try write("hidpp_battery_0/capacity", "\(capacity)")
    }

    /// Writes the ACPI platform profile (`low-power`, `balanced`, `performance`, …).
    public func setPlatformProfile(_ profile: String) throws {
        try (profile + "\n").write(toFile: platformProfile, atomically: true, encoding: .utf8)
    }

    /// Writes `value` and a newline to `relative` under the root, as sysfs shows attributes.
    private func write(_ relative: String, _ value: String) throws {
        let url = URL(fileURLWithPath: root).appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try (value + "\n").write(to: url, atomically: true, encoding: .utf8)
    }
}
