import Testing
import TiltCore
import TiltEffects
import TiltRender

@Suite struct PowerGateTests {
    @Test func fullDrawsAtTheDisplayRateAndCappedAtThirty() throws {
        var gate = PowerGate(policy: .automatic)
        let fullDecision = gate.update(power: .mains, window: .visible, now: 0)
        let full = try #require(fullDecision)
        #expect(full.mode == .full)
        #expect(gate.update(power: .mains, window: .visible, now: 0.1) == nil, "no change, no new decision")
        #expect(gate.delay(now: 0, displayRate: 60) == 0)
        gate.drew(now: 0)
        #expect(abs((gate.delay(now: 0, displayRate: 60) ?? -1) - 1.0 / 60) < 1e-9)
        #expect(gate.delay(now: 0, displayRate: nil) == 0, "a window's swap paces full mode")
        let cappedDecision = gate.update(power: PowerState(onBattery: true, capacity: 50), window: .visible, now: 1)
        let capped = try #require(cappedDecision)
        #expect(capped.mode == .capped && capped.motionRate == 15)
        gate.drew(now: 1)
        #expect(abs((gate.delay(now: 1.01, displayRate: nil) ?? -1) - (1.0 / 30 - 0.01)) < 1e-9)
    }

    @Test func stillDrawsOneFrameThenWaitsForAChange() throws {
        var gate = PowerGate(policy: .automatic)
        _ = gate.update(power: .mains, window: .visible, now: 0)
        gate.drew(now: 0)
        let saver = PowerState(onBattery: false, capacity: 100, profile: "power-saver")
        let stillDecision = gate.update(power: saver, window: .visible, now: 2)
        let still = try #require(stillDecision)
        #expect(still.mode == .still && still.motionRate == nil)
        #expect(gate.delay(now: 2, displayRate: 60) == 0, "the still frame is due at once")
        gate.drew(now: 2)
        #expect(gate.delay(now: 3, displayRate: 60) == nil, "then nothing until something changes")
        gate.invalidate()
        #expect(gate.delay(now: 3, displayRate: 60) == 0, "an exposed window draws the still frame again")
        gate.drew(now: 3)
        _ = gate.update(power: .mains, window: .visible, now: 5)
        let stats = gate.finalStats(now: 6)
        #expect(stats.modes[.still]?.drawn == 2 && stats.modes[.still]?.entered == 1)
        #expect(stats.modes[.full]?.drawn == 1 && stats.modes[.full]?.entered == 2)
        #expect(abs((stats.modes[.still]?.seconds ?? 0) - 3) < 1e-9)
        #expect(abs((stats.modes[.full]?.seconds ?? 0) - 3) < 1e-9)
        #expect(stats.jsonLine.hasPrefix(#"{"class":"stats","drawn":3,"skipped":0,"modes":{"full":{"drawn":1,"#))
    }

    @Test func hiddenDrawsNothing() throws {
        var gate = PowerGate(policy: .fixed(.full))
        let hiddenDecision = gate.update(power: .mains, window: .hidden, now: 0)
        let hidden = try #require(hiddenDecision)
        #expect(hidden.mode == .hidden && hidden.motionRate == nil)
        #expect(gate.delay(now: 0, displayRate: 60) == nil)
        #expect(gate.update(power: .mains, window: .visible, now: 1)?.mode == .full)
    }
}
