import Foundation
import Testing
import TiltCore
import TiltTestKit

@testable import TiltIIO
@testable import TiltSensors

/// `_type` parsing and decoding, and mount matrices, without any device.
@Suite struct IIOScanFormatTests {
    @Test(arguments: [
        ("le:s16/16>>0", [0x34, 0x12] as [UInt8], Int64(0x1234)),
        ("le:s16/16>>0", [0xFF, 0xFF], -1),
        ("be:s12/16>>4", [0x80, 0x00], -2048),
        ("be:s12/16>>4", [0x12, 0x30], 0x123),
        ("le:s32/32>>0", [0x00, 0x00, 0x00, 0x80], Int64(Int32.min)),
        ("le:u8/8>>0", [0xF0], 240),
        ("le:s64/64>>0", [1, 0, 0, 0, 0, 0, 0, 0], 1),
    ])
    func decodes(type: String, bytes: [UInt8], expected: Int64) throws {
        let format = try IIOScanFormat(parsing: type)
        #expect(format.decode(bytes) == expected)
        #expect(format.description == type)
    }

    @Test func packerAndDecoderAgree() throws {
        for type in ["le:s16/16>>0", "be:s12/16>>4", "le:s32/32>>0", "be:u10/16>>6"] {
            let f = try IIOScanFormat(parsing: type)
            for v in [f.range.lowerBound, -1, 0, 1, 77, f.range.upperBound] where f.range.contains(v) {
                let bytes = FakeIIOTree.pack([v], type: type, timestampNs: nil)
                #expect(f.decode(bytes) == v, "\(type) \(v)")
            }
        }
    }

    @Test func repeatAndSaturation() throws {
        let f = try IIOScanFormat(parsing: "le:s12/16X2>>4\n\0")
        #expect(f.repeatCount == 2 && f.bits == 12 && f.shift == 4)
        #expect(f.isSaturated(2047) && f.isSaturated(-2048) && !f.isSaturated(2046))
    }

    @Test(arguments: ["", "le:s16", "xx:s16/16>>0", "le:s16/12>>0", "le:q16/16>>0", "le:s16/16>>16"])
    func rejectsBadTypes(text: String) {
        let error = #expect(throws: IIOError.self) { try IIOScanFormat(parsing: text) }
        #expect(error?.kind == .badFormat)
    }

    @Test func mountMatrix() throws {
        let m = try IIOMountMatrix(parsing: "0, 1, 0; -1, 0, 0; 0, 0, 1\n")
        #expect(m.apply(Vector3(1, 2, 3)) == Vector3(2, -1, 3))
        #expect(m.description == "0, 1, 0; -1, 0, 0; 0, 0, 1")
        let error = #expect(throws: IIOError.self) { try IIOMountMatrix(parsing: "1, 0; 0, 1") }
        #expect(error?.kind == .badMountMatrix)
    }

    @Test func rateChoiceIsTheLowestThatServes() {
        #expect(IIOSensorPlan.pickRate(available: [25, 50, 100, 200], wanted: 60) == 100)
        #expect(IIOSensorPlan.pickRate(available: [25, 50, 100, 200], wanted: 25) == 25)
        #expect(IIOSensorPlan.pickRate(available: [25, 50], wanted: 400) == 50)
        #expect(IIOSensorPlan.pickRate(available: [], wanted: 60) == nil)
    }

    @Test(.enabled(if: !FileManager.default.fileExists(atPath: "/sys/bus/iio"), "this machine has IIO devices"))
    func missingIIOSaysWhatToCheck() {
        do {
            _ = try IIOMotionSource(uri: "local:")
            Issue.record("expected an error without /sys/bus/iio")
        } catch {
            #expect([.noContext, .noSensors].contains(error.kind), "\(error)")
            #expect(error.description.contains("/sys/bus/iio") && error.isTransient)
        }
    }
}
