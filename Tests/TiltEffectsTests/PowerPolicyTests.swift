import Foundation
import Testing
import TiltCore
import TiltEffects

@Suite struct PowerPolicyTests {
    let policy = PowerPolicy.automatic

    @Test func defaultsFollowThePowerState() {
        #expect(policy.mode(power: .mains) == .full)
        #expect(policy.mode(power: nil) == .full, "no daemon counts as mains")
        #expect(policy.mode(power: PowerState(onBattery: true, capacity: 43)) == .capped)
        #expect(policy.mode(power: PowerState(onBattery: true, capacity: 19)) == .still)
        #expect(policy.mode(power: PowerState(onBattery: false, capacity: 100, profile: "power-saver")) == .still)
        #expect(policy.mode(power: PowerState(onBattery: false, profile: "low-power")) == .still, "ACPI name")
        #expect(policy.mode(power: PowerState(onBattery: true, capacity: 80, profile: "performance")) == .capped)
    }

    @Test func aHiddenWindowDrawsNothingWhateverThePower() {
        for power in [PowerState.mains, PowerState(onBattery: true, capacity: 5)] {
            let d = policy.decide(power: power, window: .hidden)
            #expect(d.mode == .hidden && d.frameRate == 0 && d.motionRate == nil)
        }
        #expect(PowerPolicy.fixed(.full).mode(power: .mains, window: .hidden) == .hidden)
    }

    @Test func ratesPerMode() {
        #expect(policy.decision(for: .full) == .init(mode: .full, frameRate: nil, motionRate: 60))
        #expect(policy.decision(for: .capped) == .init(mode: .capped, frameRate: 30, motionRate: 15))
        #expect(policy.decision(for: .still) == .init(mode: .still, frameRate: 0, motionRate: nil))
        #expect(policy.decision(for: .capped).summary == "capped (30 fps, motion 15 Hz)")
        #expect(policy.decision(for: .still).summary == "still (one frame, no motion)")
        #expect(policy.decision(for: .full).summary == "full (display rate, motion 60 Hz)")
    }

    @Test func fixedPoliciesAndThresholds() {
        #expect(PowerPolicy.fixed(.still).mode(power: .mains) == .still)
        #expect(PowerPolicy.fixed(.full).mode(power: PowerState(onBattery: true, capacity: 3)) == .full)
        var lenient = PowerPolicy.automatic
        lenient.lowBatteryPercent = 10
        #expect(lenient.mode(power: PowerState(onBattery: true, capacity: 15)) == .capped)
        #expect(lenient.mode(power: PowerState(onBattery: true, capacity: 9)) == .still)
    }

    private func preset(power: String) throws -> Preset {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tilt-power-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try "vec4 c(vec2 p, vec4 color) { return color; }".write(
            to: dir.appendingPathComponent("c.glsl"), atomically: true, encoding: .utf8)
        let json = #"{"effects":[{"kind":"color","function":"c","file":"c.glsl"}],"power":\#(power)}"#
        try json.write(to: dir.appendingPathComponent("preset.json"), atomically: true, encoding: .utf8)
        return try Preset.load(directory: dir.path)
    }

    @Test func aPresetCanChangeThePolicy() throws {
        #expect(try preset(power: #""still""#).power == .fixed(.still))
        let mixed = try #require(try preset(power: #"{"battery":"full","lowBatteryPercent":10}"#).power)
        #expect(mixed.mains == .full && mixed.battery == .full && mixed.lowPower == .still)
        #expect(mixed.lowBatteryPercent == 10)
        let hidden = #expect(throws: PresetError.self) { try preset(power: #""hidden""#) }
        #expect(hidden?.kind == .invalid)
        do {
            _ = try preset(power: #"{"battery":"slow"}"#)
            Issue.record("an unknown mode must be rejected")
        } catch {
            #expect((error as? PresetError)?.kind == .invalid)
            #expect((error as? PresetError)?.field == "power.battery")
            #expect("\(error)".contains("power.battery") && "\(error)".contains("full, capped, still"), "\(error)")
        }
    }
}
