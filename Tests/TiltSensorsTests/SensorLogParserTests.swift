import Testing
import TiltCore
import TiltSensors

/// The log's text rules without a file (`SensorLogParser`, also driven by the LogRow fuzz target).
@Suite struct SensorLogParserTests {
    private func rows(_ text: String) -> [Result<SensorLogRow?, SensorLogError>] {
        var parser = SensorLogParser(path: "mem.csv")
        return text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { i, line in
            Result { () throws(SensorLogError) in try parser.consume(ArraySlice(line.utf8), lineNumber: i + 1) }
        }
    }

    @Test func longButValidNumbersAreNumbers() throws {
        // Exact decimal forms of doubles can be long; the old 63-byte cap refused them as "not a number".
        let long = "0." + String(repeating: "0", count: 80) + "1"
        let results = rows("t,gyr_x,gyr_y,gyr_z,acc_x,acc_y,acc_z\n\(long),0,0,0,0,0,9.8")
        let row = try #require(try results[1].get())
        #expect(row.sample.time == 1e-81)
    }

    @Test func absurdlyLongFieldsAreRefusedWithAShortMessage() {
        let huge = String(repeating: "9", count: 10_000)
        let results = rows("t,gyr_x,gyr_y,gyr_z,acc_x,acc_y,acc_z\n\(huge),0,0,0,0,0,9.8")
        guard case .failure(let error) = results[1] else {
            Issue.record("a 10 000-digit field was accepted")
            return
        }
        #expect(error.line == 2 && error.column == "t")
        #expect(error.message.count < 200, "the message quotes at most a prefix of the field")
    }

    @Test func metadataOnlyBeforeTheHeaderAndRowsOnlyAfterIt() throws {
        var parser = SensorLogParser(path: "mem.csv")
        #expect(try parser.consume(ArraySlice("# sampling_rate_hz=100; device=x".utf8), lineNumber: 1) == nil)
        #expect(try parser.consume(ArraySlice(" t , gyr_x,gyr_y,gyr_z,acc_x,acc_y,acc_z\r".utf8), lineNumber: 2) == nil)
        #expect(try parser.consume(ArraySlice("# later=ignored".utf8), lineNumber: 3) == nil)
        let row = try #require(try parser.consume(ArraySlice("1,2,3,4,5,6,7".utf8), lineNumber: 4))
        #expect(row.sample == MotionSample(time: 1, gyro: Vector3(2, 3, 4), accel: Vector3(5, 6, 7)))
        #expect(row.line == 4)
        #expect(parser.metadata == ["sampling_rate_hz": "100", "device": "x"])
        #expect(parser.columns.first == "t" && parser.hasHeader && !parser.hasMagnetometer)
    }
}
