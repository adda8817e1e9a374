import Testing
import TiltRender

/// The wallpaper's bounded latency record: percentiles to 0.1 ms, in fixed memory however long it runs.
struct LatencyRecordTests {
    @Test func percentilesOfCountedLatencies() {
        var record = LatencyRecord()
        #expect(record.percentile(0.5) == nil)
        for ms in 1...100 { record.add(Double(ms) / 1000) }
        #expect(record.count == 100)
        #expect(abs(record.percentile(0.5)! - 0.050) < 1e-9)
        #expect(abs(record.percentile(0.95)! - 0.095) < 1e-9)
        #expect(abs(record.percentile(1)! - 0.100) < 1e-9)
        #expect(abs(record.percentile(0)! - 0.001) < 1e-9)
    }

    @Test func outOfRangeLatenciesLandAtTheEnds() {
        var record = LatencyRecord()
        record.add(-0.003)  // clocks that disagree a little
        record.add(5)
        record.add(.nan)
        #expect(record.count == 3)
        #expect(record.percentile(0.1) == 0)
        #expect(abs(record.percentile(1)! - 2) < 1e-9, "2 s or more")
    }
}
