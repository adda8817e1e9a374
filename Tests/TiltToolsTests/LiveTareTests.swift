import Testing
import TiltCore
import TiltTools

/// `tilt tare`'s refusals, by kind (the command's runs are in TiltDaemonTests' TareCommandTests).
struct LiveTareTests {
    @Test("a tare is taken with the sensor active or idle, and refused when it is lost or finished")
    func refusals() {
        #expect(LiveTare.refusal(sensor: .active) == nil)
        #expect(LiveTare.refusal(sensor: .idle) == nil)
        #expect(LiveTare.refusal(sensor: .finished)?.kind == .noSensor)
        #expect(LiveTare.refusal(sensor: .lost)?.kind == .noSensor)
        #expect(LiveTare.refusal(sensor: .finished)?.message.contains("nothing was changed") == true)
    }
}
