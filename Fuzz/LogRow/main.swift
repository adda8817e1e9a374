import TiltCore
import TiltSensors

#if canImport(Glibc)
    import Glibc
#endif

// libFuzzer target: the sensor log's text rules (SensorLogParser: comments, metadata, header, rows).
//
// Built by scripts/fuzz against the TiltCore and TiltSensors modules themselves (the pure sensor module).
// The input is a whole log; each line goes through the parser as SensorLogReader feeds it. Checked on every input:
// - a row comes back only after a header, with finite time, gyroscope and accelerometer and its own line number;
// - a magnetometer or truth value is present only when the header has those columns, and is then finite;
// - an error names the log and a line within the input, and the parser goes on with the next line;
// - a row the parser accepted, written back as CSV in the header's column order, parses to the same sample.

func format(_ v: Double) -> String { v.description }

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var parser = SensorLogParser(path: "fuzz.csv")
    let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    for (offset, line) in lines.enumerated() {
        let number = offset + 1
        let hadHeader = parser.hasHeader
        do {
            guard let row = try parser.consume(line, lineNumber: number) else { continue }
            check(hadHeader, "a row before the header")
            check(row.line == number, "row line \(row.line), expected \(number)")
            let s = row.sample
            check(s.time.isFinite && s.gyro.isFinite && s.accel.isFinite, "a non-finite required value")
            check(s.mag == nil || (parser.hasMagnetometer && s.mag!.isFinite), "a stray or non-finite mag")
            check(row.truth == nil || (parser.hasTruth && row.truth!.isFinite), "a stray or non-finite truth")
            check((row.movement != nil) == parser.hasMovement, "movement present iff its column is")
            checkRoundTrip(row, columns: parser.columns)
        } catch {
            check(error.path == "fuzz.csv", "the error names another file")
            if let l = error.line { check(l == number, "error on line \(l) for line \(number)") }
            check(!error.message.isEmpty, "an error without a message")
        }
    }
    return 0
}

/// Writes the row's values back in the header's columns (others as 0) and parses that again.
func checkRoundTrip(_ row: SensorLogRow, columns: [String]) {
    let s = row.sample
    var values: [String: Double] = [
        "t": s.time, "gyr_x": s.gyro.x, "gyr_y": s.gyro.y, "gyr_z": s.gyro.z,
        "acc_x": s.accel.x, "acc_y": s.accel.y, "acc_z": s.accel.z,
    ]
    if let m = s.mag {
        values["mag_x"] = m.x
        values["mag_y"] = m.y
        values["mag_z"] = m.z
    }
    if let q = row.truth {
        values["truth_w"] = q.w
        values["truth_x"] = q.x
        values["truth_y"] = q.y
        values["truth_z"] = q.z
    }
    if let moving = row.movement { values["movement"] = moving ? 1 : 0 }
    // The first occurrence of a duplicated column name is the one the parser reads; other columns, and a
    // magnetometer the row had no finite value for, are written as nan.
    var seen = Set<String>()
    let fields = columns.map { name -> String in
        defer { seen.insert(name) }
        return seen.contains(name) ? "nan" : values[name].map(format) ?? "nan"
    }
    var again = SensorLogParser(path: "again.csv")
    do {
        _ = try again.consume(ArraySlice(columns.joined(separator: ",").utf8), lineNumber: 1)
        let back = try again.consume(ArraySlice(fields.joined(separator: ",").utf8), lineNumber: 2)
        check(back?.sample == row.sample, "the row does not round-trip: \(String(describing: back)) vs \(row)")
    } catch {
        check(false, "a written row does not parse: \(error)")
    }
}

/// Like `precondition`, but prints its message in optimised builds too, then aborts (libFuzzer saves the input).
func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    guard !condition else { return }
    let text = Array("fuzz check failed: \(message())\n".utf8)
    _ = text.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    abort()
}
