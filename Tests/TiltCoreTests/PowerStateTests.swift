import Testing
import TiltCore

@Suite struct PowerStateTests {
    @Test func lowPowerFromProfileOrLowBattery() {
        #expect(!PowerState.mains.lowPower)
        #expect(PowerState(onBattery: false, capacity: nil, profile: "power-saver").lowPower)
        #expect(PowerState(onBattery: true, capacity: 19, profile: nil).lowPower)
        #expect(!PowerState(onBattery: true, capacity: 20, profile: "balanced").lowPower)
        // A low battery that is charging is not a reason to save power.
        #expect(!PowerState(onBattery: false, capacity: 5, profile: nil).lowPower)
    }
}
